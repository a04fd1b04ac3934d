package worker

import (
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

// TestCheckDigest checks the digest check of a fetched trace: the sum of
// the bytes the object's description records passes, any other is proven
// damage, and a description without a digest (or with one of another
// kind) is not checked.
func TestCheckDigest(t *testing.T) {
	sum := sha256.Sum256([]byte("trace bytes"))
	other := sha256.Sum256([]byte("other bytes"))
	info := func(digest string) *jetstream.ObjectInfo {
		return &jetstream.ObjectInfo{ObjectMeta: jetstream.ObjectMeta{Name: "x"}, Bucket: natsutil.TraceBucket, Chunks: 1, Digest: digest}
	}
	h := sha256.New()
	h.Write([]byte("trace bytes"))
	recorded := jetstream.GetObjectDigestValue(h) // as the object store records it
	for _, c := range []struct {
		digest string
		sum    []byte
		damage bool
	}{
		{recorded, sum[:], false},
		{recorded, other[:], true},
		{"", other[:], false},
		{"SHA-512=abc", other[:], false},
	} {
		err := checkDigest(info(c.digest), c.sum)
		if got := errors.Is(err, natsutil.ErrObjectDamaged); got != c.damage {
			t.Errorf("digest %q: error %v, want damage %v", c.digest, err, c.damage)
		}
	}
}
