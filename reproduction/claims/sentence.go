package claims

import "fmt"

// OneSentence checks that s is at most one sentence of at most
// [MaxQuote] bytes, by the rule the quotes of a claims file follow (a
// period followed by a capital starts a second sentence, except after
// abbreviations such as "Fig." or "et al."). Other files that quote a
// paper (a paper's readings.yaml) use it for their quotes.
func OneSentence(s string) error {
	if len(s) > MaxQuote {
		return fmt.Errorf("%d bytes; a quote is at most one sentence (%d bytes)", len(s), MaxQuote)
	}
	if i := secondSentence(s); i >= 0 {
		return fmt.Errorf("more than one sentence (the second starts at %q); quote one", clip(s[i:], 30))
	}
	return nil
}
