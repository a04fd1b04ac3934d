package external_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/external"
)

// TestMain makes the test binary a trivial policy when
// SCHEDFARM_TRIVIAL_POLICY is set: it starts every job at its arrival and
// does nothing else, as cheaply as it can (the benchmark's child).
func TestMain(m *testing.M) {
	if os.Getenv("SCHEDFARM_TRIVIAL_POLICY") == "1" {
		trivialPolicy()
		return
	}
	os.Exit(m.Run())
}

func trivialPolicy() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	in.ReadSlice('\n') // init
	out.WriteString(`{"type":"ready","version":1,"name":"trivial"}` + "\n")
	out.Flush()
	arrive := []byte(`{"type":"arrive","job":`)
	var b []byte
	for {
		line, err := in.ReadSlice('\n')
		if err != nil || bytes.Contains(line, []byte(`"type":"end"`)) {
			return
		}
		b = append(b[:0], `{"type":"decisions","decisions":[`...)
		n := 0
		for {
			i := bytes.Index(line, arrive)
			if i < 0 {
				break
			}
			line = line[i+len(arrive):]
			j := bytes.IndexByte(line, ',')
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(b, `{"op":"start","job":`...)
			b = append(b, line[:j]...)
			b = append(b, '}')
		}
		b = append(b, "]}\n"...)
		out.Write(b)
		out.Flush()
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkInstant: 10,000 one-processor jobs, one a second, each
// running 1 s, under the trivial policy (a Go child that starts each
// arrival): about one instant per job. It reports the wall time per
// instant (engine, pipes and child) and the engine's own CPU time per
// instant (this process's user and system time: encoding, writing,
// reading, decoding, simulating), which is the cost beyond the policy's.
func BenchmarkInstant(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	jobs := make([]sim.Job, n)
	for i := range jobs {
		jobs[i] = sim.Job{ID: int64(i + 1), Submit: sim.Time(2 * i), Runtime: 1, Estimate: 1, Procs: 1}
	}
	env := append(os.Environ(), "SCHEDFARM_TRIVIAL_POLICY=1")
	var instants int
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		p, err := external.New(external.Config{Command: []string{exe}, Env: env})
		if err != nil {
			b.Fatal(err)
		}
		c0 := cpuTime()
		res, err := sim.Run(context.Background(), 2, jobs, p, sim.Options{})
		cpu += cpuTime() - c0
		p.Close()
		if err != nil {
			b.Fatal(err)
		}
		instants += res.Instants
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(instants), "ns/instant")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(instants), "engine-cpu-ns/instant")
	b.ReportMetric(0, "ns/op")
}
