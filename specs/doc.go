// Package specs holds schedfarm's ready sweep specs (YAML): a quickstart
// and, in one folder per paper, one spec per reproduced table or figure
// group, for example kettimuthu2005/fig07-14.yaml, beside the paper's
// data: paper.yaml (its figure groups), claims.yaml and readings.yaml.
// Its Go code embeds the paper files ([Papers], read by package
// reproduction) and tests that every spec parses and expands and that the
// claims and readings files are valid (go test ./specs).
package specs
