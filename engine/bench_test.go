package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/websim/websim/internal/benchref"
)

// BenchmarkMMc runs the reference model of ../shared/bench: M/M/20 at
// utilization 0.8 (arrival rate 16, service mean 1), processing on the
// application server, 10^6 requests per iteration. It reports finished
// requests and events per second, and the CPU time per event (cpu-ns/event,
// from getrusage: steadier than wall time on a shared machine), to hold
// against the typed-heap loop of ../shared/bench/mmc-typed.
func BenchmarkMMc(b *testing.B) {
	m := mmc20()
	const n = 1_000_000
	b.ReportAllocs()
	var events int64
	cpu := benchref.SelfCPU()
	for i := 0; b.Loop(); i++ {
		r, err := Run(m, RunConfig{Seed: uint64(i + 1), Observations: n})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	cpu = benchref.SelfCPU() - cpu
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(n)*float64(b.N)/sec, "requests/s")
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(cpu*1e9/float64(events), "cpu-ns/event")
}

// BenchmarkMMcMemory runs the same model for 10^5, 10^6 and 10^7
// requests: bytes allocated per run (B/op) stay flat, because statistics
// are running figures and requests are recycled.
func BenchmarkMMcMemory(b *testing.B) {
	m := mmc20()
	for _, n := range []int64{100_000, 1_000_000, 10_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(m, RunConfig{Seed: 1, Observations: n}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLBSServers spreads the same traffic over the same 3,000 units
// as 10 application servers of 300 or 1,000 servers of 3, under LBS: 500
// requests a second, each processing Exp(0.5) on its unit, then calling an
// unlimited external server Exp(0.5) holding one more unit (MaxAdmitted
// (Capacity-1)/2 keeps that from deadlocking), so about 500 requests are
// in the system either way and the event list is the same size. It
// reports CPU time per request (cpu-ns/request): what grows with the
// servers is LBS (a pick and its load updates, O(log servers)) and the
// deadlock bookkeeping (O(1) per change).
func BenchmarkLBSServers(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			const units, obs = 3000, 200_000
			capacity := units / n
			m := &Model{
				Name: "lbs", Loads: []string{"L"},
				App:     AppConfig{Servers: n, Capacity: capacity, Selection: LeastBusy, MaxAdmitted: (capacity - 1) / 2},
				Servers: []Server{{Name: "Ext", Capacity: 1_000_000}},
				Services: []Service{{Name: "Page", Steps: []Step{
					{Name: "Work", Kind: Local, ProcTime: expD(0.5), OnSuccess: 1, OnFailure: Fail},
					{Name: "Call", Kind: Call, Server: 0, ProcTime: expD(0.5), OnSuccess: Done, OnFailure: Fail},
				}}},
				Entities: []Entity{{Name: "Web", InterArrival: []Dist{expD(1.0 / 500)},
					Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
			}
			b.ReportAllocs()
			cpu := benchref.SelfCPU()
			for i := 0; b.Loop(); i++ {
				r, err := Run(m, RunConfig{Seed: uint64(i + 1), WarmUp: 10, Observations: obs})
				if err != nil {
					b.Fatal(err)
				}
				if !r.Stable {
					b.Fatalf("unstable: %s", r.Unstable)
				}
			}
			cpu = benchref.SelfCPU() - cpu
			b.ReportMetric(cpu*1e9/float64(obs*b.N), "cpu-ns/request")
		})
	}
}

// BenchmarkBackgroundLoad places the background load of one external
// server (Exp(1) service times) at a utilization of 0.6 and of 0.97, with
// 12, 90 and 500 units, beside a trickle of requests that never call it.
// It reports the CPU time per background job (cpu-ns/job): two random
// draws and the job's placement on the server's tree of free times (see
// extServer.place), whose depth grows with the units.
func BenchmarkBackgroundLoad(b *testing.B) {
	for _, units := range []int{12, 90, 500} {
		for _, util := range []float64{0.6, 0.97} {
			b.Run(fmt.Sprintf("units=%d/util=%g", units, util), func(b *testing.B) {
				m := oneService(expD(1), Step{Name: "Work", Kind: Local, ProcTime: expD(0.001)})
				rate := util * float64(units)
				m.Servers = []Server{{Name: "DB", Capacity: units,
					BackgroundInterArrival: expD(1 / rate), BackgroundServiceTime: expD(1)}}
				const obs = 20_000
				var jobs float64
				cpu := benchref.SelfCPU()
				for i := 0; b.Loop(); i++ {
					r, err := Run(m, RunConfig{Seed: uint64(i + 1), Observations: obs})
					if err != nil {
						b.Fatal(err)
					}
					jobs += float64(r.Servers[0].Arrived) // every job: no warm-up
				}
				cpu = benchref.SelfCPU() - cpu
				b.ReportMetric(cpu*1e9/jobs, "cpu-ns/job")
			})
		}
	}
}

// BenchmarkMMcAgainstTypedHeap holds the engine against the typed-heap
// loop of ../shared/bench (bench/mmc-typed, built once and run as a child
// process): each round runs BenchmarkMMc's model for 10^6 requests, then
// the reference program for 10^6 customers, so that both see the same
// state of a shared machine. It reports the CPU time per event of each
// and the median of the rounds' ratios (x-typed-heap), the figure of
// issue 17's goal of at most 1.2. The child's CPU includes its start, about
// a millisecond of its 0.15 s: the ratio reads up to 1% low.
func BenchmarkMMcAgainstTypedHeap(b *testing.B) {
	typed := benchref.Build(b, "./bench/mmc-typed")
	m := mmc20()
	const n = 1_000_000
	var ours, theirs, ratios []float64
	for i := 0; b.Loop(); i++ {
		cpu := benchref.SelfCPU()
		r, err := Run(m, RunConfig{Seed: uint64(i + 1), Observations: n})
		if err != nil {
			b.Fatal(err)
		}
		engineNs := (benchref.SelfCPU() - cpu) * 1e9 / float64(r.Events)
		sec, out := benchref.CPU(b, typed, "-n", fmt.Sprint(n), "-seed", fmt.Sprint(i+1))
		events := eventsPrinted(b, out)
		typedNs := sec * 1e9 / float64(events)
		ours, theirs = append(ours, engineNs), append(theirs, typedNs)
		ratios = append(ratios, engineNs/typedNs)
	}
	b.ReportMetric(benchref.Median(ours), "cpu-ns/event")
	b.ReportMetric(benchref.Median(theirs), "typed-cpu-ns/event")
	b.ReportMetric(benchref.Median(ratios), "x-typed-heap")
}

// eventsPrinted reads the event count a reference program of bench/
// prints ("events=2000000").
func eventsPrinted(tb testing.TB, out string) int64 {
	tb.Helper()
	i := strings.LastIndex(out, "events=")
	if i < 0 {
		tb.Fatalf("no events= in the reference program's output:\n%s", out)
	}
	var events int64
	if _, err := fmt.Sscan(out[i+len("events="):], &events); err != nil || events <= 0 {
		tb.Fatalf("events= unreadable in the reference program's output (%v):\n%s", err, out)
	}
	return events
}

// mmc20 is the reference model of ../shared/bench: M/M/20 at utilization
// 0.8 (arrival rate 16, service mean 1), processing on the application
// server.
func mmc20() *Model {
	m := oneService(expD(1.0/16), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 20
	return m
}
