package yamlnode

import (
	"errors"
	"fmt"
	"os"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// ParseFile reads the file at path and parses its bytes with parse; a
// [*yamlerr.ValidationError] that parse returns gets the file's path, so that its
// text names the file. kind names the format in a read error ("read
// claims: ...").
func ParseFile[T any](path, kind string, parse func(data []byte) (T, error)) (T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("read %s: %w", kind, err)
	}
	out, err := parse(data)
	var ve *yamlerr.ValidationError
	if errors.As(err, &ve) {
		ve.File = path
	}
	return out, err
}
