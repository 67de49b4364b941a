package server

// OnViewer has f told as each replay viewer call waits its turn ("wait")
// and as it begins to make its viewer ("make").
func (s *Server) OnViewer(f func(string)) { s.viewerHook = f }
