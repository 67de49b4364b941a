//go:build !unix

package catalog

// openNonblock is nothing where a file's open does not wait on a writer.
const openNonblock = 0
