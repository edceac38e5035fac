module github.com/sitemapkit/sitemapkit

go 1.26.8

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/klauspost/compress v1.20.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	golang.org/x/net v0.62.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
