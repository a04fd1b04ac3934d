// Package specs holds schedfarm's ready sweep specs (YAML): a quickstart
// and, in one folder per paper, one spec per reproduced table or figure
// group, for example kettimuthu2005/fig07-14.yaml. Its only Go code is a
// test that every spec parses and expands (go test ./specs).
package specs
