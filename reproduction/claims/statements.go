package claims

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// Headline is one of a paper's headline results: a conclusion its
// abstract and conclusion section stand on, made of statements, each
// named by a claim (its id before each) whose quote it is.
type Headline struct {
	ID string
	// Text is the conclusion in a few words.
	Text string
	// Claims name the headline's statements: each claim's quote is one.
	Claims []string
	Line   int
}

// MinHeadlines and MaxHeadlines bound the number of a paper's headline
// results.
const (
	MinHeadlines = 3
	MaxHeadlines = 8
)

// Statement is the claims expanded from one quoted sentence of the paper:
// every result claim with that quote.
type Statement struct {
	Quote  string
	Figure string // the figure of its first claim
	// Rows index the scorecard's rows of the statement, in file order.
	Rows                    []int
	Agree, Partly, Disagree int
	Errors                  int
	Verdict                 Verdict
	Sources                 []string // the distinct source ids of its claims
	NotAgreeing             []string // ids of its claims that do not agree
}

// Counted reports whether the row counts in the statements: a result,
// and for a single run, one whose test has the power to reject a value
// 2x off.
func (r *Row) Counted() bool { return r.Class == ClassResult && !r.LowPower }

// combineVerdicts grades a whole from its parts: agree when every part
// agrees, disagree when more than half disagree (or could not be
// evaluated), partly otherwise.
func combineVerdicts(agree, disagree, total int) Verdict {
	switch {
	case total > 0 && agree == total:
		return Agree
	case 2*disagree > total:
		return Disagree
	}
	return Partly
}

// Statements returns the scorecard's statements: its result rows grouped
// by quote, in order of first appearance.
func (s *Scorecard) Statements() []Statement {
	var out []Statement
	at := map[string]int{}
	for i := range s.Rows {
		r := &s.Rows[i]
		if !r.Counted() {
			continue
		}
		k, ok := at[r.Quote]
		if !ok {
			k = len(out)
			at[r.Quote] = k
			out = append(out, Statement{Quote: r.Quote, Figure: r.Figure})
		}
		st := &out[k]
		st.Rows = append(st.Rows, i)
		switch r.Verdict {
		case Agree:
			st.Agree++
		case Partly:
			st.Partly++
		case Disagree:
			st.Disagree++
		default:
			st.Errors++
		}
		if r.Verdict != Agree {
			st.NotAgreeing = append(st.NotAgreeing, r.ID)
		}
		if !containsString(st.Sources, r.Source) {
			st.Sources = append(st.Sources, r.Source)
		}
	}
	for i := range out {
		st := &out[i]
		st.Verdict = combineVerdicts(st.Agree, st.Disagree+st.Errors, len(st.Rows))
	}
	return out
}

// HeadlineResult is a headline graded from its statements.
type HeadlineResult struct {
	Headline
	Statements              []Statement
	Agree, Partly, Disagree int
	Verdict                 Verdict
	// Missing are claims named by the headline that are not result rows
	// of the scorecard.
	Missing []string
}

// HeadlineResults grades the scorecard's headlines: a headline agrees
// when all its statements agree, disagrees when most disagree, and is
// partly otherwise.
func (s *Scorecard) HeadlineResults() []HeadlineResult {
	sts := s.Statements()
	bySource := map[string]int{}
	for k, st := range sts {
		for _, src := range st.Sources {
			if _, ok := bySource[src]; !ok {
				bySource[src] = k
			}
		}
	}
	var out []HeadlineResult
	for _, h := range s.Headlines {
		hr := HeadlineResult{Headline: h}
		seen := map[int]bool{}
		for _, id := range h.Claims {
			k, ok := bySource[id]
			if !ok {
				hr.Missing = append(hr.Missing, id)
				continue
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			st := sts[k]
			hr.Statements = append(hr.Statements, st)
			switch st.Verdict {
			case Agree:
				hr.Agree++
			case Partly:
				hr.Partly++
			default:
				hr.Disagree++
			}
		}
		hr.Verdict = combineVerdicts(hr.Agree, hr.Disagree+len(hr.Missing), len(hr.Statements)+len(hr.Missing))
		out = append(out, hr)
	}
	return out
}

// Figures are a paper's reproduction figures: what the summary line says.
type Figures struct {
	Headlines, HeadlinesAgree                   int
	Statements, StatementsAgree, StatementsPart int
	Published, PublishedWithin                  int
	Setup, SetupAgree                           int
	Invariants, InvariantsHold                  int
	Departures                                  int
	Claims                                      int
}

// PublishedWithin is the relative distance within which a published
// number counts as reproduced in the figures.
const PublishedWithin = 0.10

// Tally computes the scorecard's figures. Only result claims count in
// the statements, headlines and published numbers; setup checks and
// invariants have their own counts.
func (s *Scorecard) Tally() Figures {
	var f Figures
	f.Claims = len(s.Rows)
	for _, st := range s.Statements() {
		f.Statements++
		switch st.Verdict {
		case Agree:
			f.StatementsAgree++
		case Partly:
			f.StatementsPart++
		}
	}
	for _, h := range s.HeadlineResults() {
		f.Headlines++
		if h.Verdict == Agree {
			f.HeadlinesAgree++
		}
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Departure != "" {
			f.Departures++
		}
		switch r.Class {
		case ClassSetup:
			f.Setup++
			if r.Verdict == Agree {
				f.SetupAgree++
			}
		case ClassInvariant:
			f.Invariants++
			if r.Verdict == Agree {
				f.InvariantsHold++
			}
		case ClassResult:
			if r.Kind == KindValue && !r.LowPower && !math.IsNaN(r.Target) {
				f.Published++
				if !math.IsNaN(r.Value) && math.Abs(r.Value-r.Target) <= PublishedWithin*math.Abs(r.Target)+1e-12 {
					f.PublishedWithin++
				}
			}
		}
	}
	return f
}

// String is the figures part of the summary line: "headlines 4/6 ·
// statements 88/132 agree, 20 partly · published numbers 24/36 within
// 10% · setup 40/40 · invariants hold".
func (f Figures) String() string {
	var parts []string
	if f.Headlines > 0 {
		parts = append(parts, fmt.Sprintf("headlines %d/%d", f.HeadlinesAgree, f.Headlines))
	}
	parts = append(parts, fmt.Sprintf("statements %d/%d agree, %d partly", f.StatementsAgree, f.Statements, f.StatementsPart))
	if f.Published > 0 {
		parts = append(parts, fmt.Sprintf("published numbers %d/%d within %d%%", f.PublishedWithin, f.Published, int(PublishedWithin*100)))
	}
	if f.Setup > 0 {
		parts = append(parts, fmt.Sprintf("setup %d/%d", f.SetupAgree, f.Setup))
	}
	switch {
	case f.Invariants == 0:
	case f.InvariantsHold == f.Invariants:
		parts = append(parts, "invariants hold")
	default:
		parts = append(parts, fmt.Sprintf("invariants %d/%d hold", f.InvariantsHold, f.Invariants))
	}
	return strings.Join(parts, " · ")
}

// headlines parses the file's headlines: 3 to 8, each with an id, a text
// and the result claims (ids before each) whose quotes are its
// statements.
func (p *parser) headlines(nodes []*yaml.Node) {
	if nodes == nil {
		return
	}
	if len(nodes) < MinHeadlines || len(nodes) > MaxHeadlines {
		var at *yaml.Node
		if len(nodes) > 0 {
			at = nodes[0]
		}
		p.add("headlines", at, problem(yamlerr.ErrValue, "%d headline results; a paper has %d to %d", len(nodes), MinHeadlines, MaxHeadlines))
	}
	class := map[string]Class{}
	for _, c := range p.f.Claims {
		class[c.Source] = c.Class
	}
	seen := map[string]bool{}
	for i, n := range nodes {
		path := fmt.Sprintf("headlines[%d]", i)
		h := Headline{Line: n.Line}
		p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
			switch key {
			case "id":
				if s, ok := p.name(v, kp, idRE, "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'"); ok {
					if seen[s] {
						p.add(kp, v, problem(yamlerr.ErrValue, "headline %q is listed twice", s))
					}
					seen[s] = true
					h.ID = s
				}
			case "text":
				if s, ok := p.nonEmpty(v, kp); ok {
					h.Text = strings.Join(strings.Fields(s), " ")
				}
			case "claims":
				h.Claims = p.values(v, kp)
				for j, id := range h.Claims {
					cl, ok := class[id]
					switch {
					case !ok:
						p.add(fmt.Sprintf("%s[%d]", kp, j), v, problem(yamlerr.ErrValue, "no claim %q in the file (name a claim by its id before each)", id))
					case cl != ClassResult:
						p.add(fmt.Sprintf("%s[%d]", kp, j), v, problem(yamlerr.ErrValue, "claim %q is a %s, not a result", id, cl))
					}
				}
			default:
				p.add(kp, v, problem(yamlerr.ErrUnknownKey, "unknown key (valid: id, text, claims)"))
			}
		})
		if n.Kind != yaml.MappingNode {
			continue
		}
		for _, req := range []struct {
			key string
			ok  bool
		}{{"id", h.ID != ""}, {"text", h.Text != ""}, {"claims", len(h.Claims) > 0}} {
			if !req.ok && p.lines[path+"."+req.key] == 0 {
				p.add(path+"."+req.key, n, problem(yamlerr.ErrRequired, "missing"))
			}
		}
		p.f.Headlines = append(p.f.Headlines, h)
	}
}
