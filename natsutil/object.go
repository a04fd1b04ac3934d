package natsutil

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrObjectDamaged means an object's description is in its bucket but
// not all of its chunks are: the server's store lost them (a damaged or
// truncated file under its store directory). Reading such an object
// would wait for chunks that never come.
var ErrObjectDamaged = errors.New("damaged object store")

// CheckObject reports, with an error wrapping [ErrObjectDamaged], an
// object of info whose chunks are not all in its bucket's stream. It
// counts the messages on the object's chunk subject (one request to the
// server), reading none of them. A store that lost chunks may still count
// them: the reader then finds them missing (see [ChunkSubject]).
func CheckObject(ctx context.Context, js jetstream.JetStream, info *jetstream.ObjectInfo) error {
	s, err := js.Stream(ctx, ObjectStream(info.Bucket))
	if err != nil {
		return fmt.Errorf("open the stream of bucket %s: %w", info.Bucket, err)
	}
	subject := ChunkSubject(info)
	si, err := s.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		return fmt.Errorf("count the chunks of object %s in bucket %s: %w", info.Name, info.Bucket, err)
	}
	if got := si.State.Subjects[subject]; got != uint64(info.Chunks) {
		return fmt.Errorf("%w: object %s in bucket %s has %d of its %d chunks (%d bytes)",
			ErrObjectDamaged, info.Name, info.Bucket, got, info.Chunks, info.Size)
	}
	return nil
}

// ObjectStream is the name of the stream that holds an object store
// bucket.
func ObjectStream(bucket string) string { return "OBJ_" + bucket }

// ChunkSubject is the subject of the chunk messages of the object of
// info, in order on [ObjectStream] of its bucket.
func ChunkSubject(info *jetstream.ObjectInfo) string {
	return "$O." + info.Bucket + ".C." + info.NUID
}
