module github.com/arbiter-games/arbiter

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/peterh/liner v1.2.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require (
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/creack/pty v1.1.24 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
