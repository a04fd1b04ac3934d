// Package traces embeds the four workload traces shipped with schedfarm
// (see README.md in this directory for their provenance), so that a spec
// naming one (trace: ctc) works wherever it lives, also outside the
// repository.
package traces

import "embed"

// FS holds the shipped traces as they are in this directory (gzipped SWF,
// about 3.6 MB).
//
//go:embed *.swf.gz
var FS embed.FS
