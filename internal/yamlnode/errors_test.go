package yamlnode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/yamlerr"
)

func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(path, []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad")
	got, err := ParseFile(path, "things", func(data []byte) (string, error) {
		return string(data), &yamlerr.ValidationError{Problems: []*yamlerr.FieldError{{Path: "x", Line: 1, Err: bad, OwnLine: true}}, Invalid: bad}
	})
	var ve *yamlerr.ValidationError
	if got != "x: 1\n" || !errors.As(err, &ve) || ve.File != path || !strings.Contains(err.Error(), path) {
		t.Errorf("ParseFile = %q, %v; want the data and an error naming %s", got, err, path)
	}
	_, err = ParseFile(filepath.Join(dir, "none.yaml"), "things", func([]byte) (int, error) { return 1, nil })
	if err == nil || !strings.HasPrefix(err.Error(), "read things: ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
