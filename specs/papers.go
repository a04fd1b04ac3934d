package specs

import "embed"

// Papers holds the paper files (papers.yaml and each paper's folder's
// paper.yaml), which package reproduction reads into the figure groups
// `schedfarm reproduce` runs.
//
//go:embed papers.yaml */paper.yaml
var Papers embed.FS
