//go:build !unix

package main

// defaultMaxConnections is -max-connections' default where there is no
// file-descriptor limit to read.
func defaultMaxConnections() int { return 1024 }
