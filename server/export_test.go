package server

// OnViewer has f told as each replay viewer call waits its turn ("wait")
// and as it begins to make its viewer ("make").
func (s *Server) OnViewer(f func(string)) { s.viewerHook = f }

// OnUpload has f told as a record sent to be viewed takes bytes of the
// server's bound ("take") and as it lets them go ("release").
func (s *Server) OnUpload(f func(string)) { s.uploadHook = f }

// OnSecretRead has f told as a secret read from the store is about to be
// kept in memory.
func (s *Server) OnSecretRead(f func()) { s.secretHook = f }
