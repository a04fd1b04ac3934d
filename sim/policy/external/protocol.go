package external

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// initMsg is the engine's handshake.
type initMsg struct {
	Type    string         `json:"type"`
	Version int            `json:"version"`
	Procs   int            `json:"procs"`
	Jobs    int            `json:"jobs"`
	Seed    uint64         `json:"seed"`
	Params  map[string]any `json:"params"`
}

// readyMsg is the policy's answer to the handshake.
type readyMsg struct {
	Type    string   `json:"type"`
	Version int      `json:"version"`
	Name    string   `json:"name"`
	Events  []string `json:"events"`
}

// decisions is the policy's answer to an instant.
type decisions struct {
	Type      string     `json:"type"`
	Decisions []decision `json:"decisions"`
}

// decision is one decision; which fields apply depends on Op.
type decision struct {
	Op       string  `json:"op"`
	Job      *int64  `json:"job"`
	Set      []int64 `json:"set"`
	Procs    *int64  `json:"procs"`
	Delay    int64   `json:"delay"`
	Overhead int64   `json:"overhead"`
	Cost     int64   `json:"cost"`
	At       *int64  `json:"at"`
	Tag      *int64  `json:"tag"`
	Deadline *int64  `json:"deadline"`
}

var emptyDecisions = []byte(`{"type":"decisions","decisions":[]}`)

// strictUnmarshal decodes one JSON object with no unknown fields and
// nothing after it.
func strictUnmarshal(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the message")
	}
	return nil
}

// decode parses a decisions message into p.msg.
func (p *Policy) decode(line []byte) error {
	p.msg.Type, p.msg.Decisions = "", p.msg.Decisions[:0]
	line = bytes.TrimRight(line, "\r")
	if bytes.Equal(line, emptyDecisions) {
		return nil
	}
	var ok bool
	if p.sets, ok = fastDecode(line, &p.msg, p.sets); ok {
		return nil
	}
	if err := decodeDecisions(line, &p.msg); err != nil {
		return err
	}
	return nil
}

// decodeDecisions parses and checks a decisions message.
func decodeDecisions(line []byte, msg *decisions) error {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] != '{' {
		return outside(line, "a decisions message")
	}
	// encoding/json reuses the slice's elements without zeroing them.
	clear(msg.Decisions[:cap(msg.Decisions)])
	msg.Decisions = msg.Decisions[:0]
	if err := strictUnmarshal(t, msg); err != nil {
		return fmt.Errorf("malformed decisions message: %w", err)
	}
	if msg.Type != "decisions" {
		return fmt.Errorf("malformed message: type %q, want \"decisions\"", msg.Type)
	}
	for i := range msg.Decisions {
		if msg.Decisions[i].Op == "" {
			return fmt.Errorf("malformed decisions message: decision %d has no op", i+1)
		}
	}
	return nil
}
