// Package newcomer holds no code: its test walks a newcomer's path. It
// builds the schedfarm binary and runs, in a scratch directory, every
// command line of the repository's Markdown files (README.md first, top to
// bottom) and every example of the commands' --help texts, then the
// notebook snippets (Python, DuckDB SQL) against the quickstart's output.
// A command it does not run is skipped by a rule that states why; a rule
// that no longer matches any command fails the test.
package newcomer
