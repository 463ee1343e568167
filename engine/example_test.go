package engine_test

import (
	"fmt"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
)

// A request type calls an external database (one server, exponential
// service of mean 1 s) at utilization 0.5: an M/M/1 queue, whose mean
// response is 1/(μ-λ) = 2 s.
func ExampleRun() {
	m := &engine.Model{
		Name: "db", TimeUnit: "s", Loads: []string{"half"},
		App:     engine.AppConfig{Servers: 1, Capacity: 1000},
		Servers: []engine.Server{{Name: "DB", Capacity: 1}},
		Services: []engine.Service{{Name: "Query", Steps: []engine.Step{
			{Name: "Select", Kind: engine.Call, Server: 0, ProcTime: dist.MustParse("Exp(1)"),
				OnSuccess: engine.Done, OnFailure: engine.Fail},
		}}},
		Entities: []engine.Entity{{
			Name: "Page", InterArrival: []engine.Dist{dist.MustParse("Exp(2)")},
			Stages: []engine.Stage{{Service: 0, OnSuccess: engine.End, OnFailure: engine.Exit}},
		}},
	}
	r, err := engine.Run(m, engine.RunConfig{Seed: 1, WarmUp: 100, Observations: 200_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("completed %d, mean response %.1f s, DB utilization %.2f, stable %v\n",
		r.Completed, r.Response.Mean, r.Servers[0].Utilization, r.Stable)
	// Output: completed 200000, mean response 2.0 s, DB utilization 0.50, stable true
}

// Replications of one scenario and load pool with Merge: counts add up,
// percentiles come from the merged histogram, and the interval of the mean
// comes from the replications' means.
func ExampleResult_Merge() {
	m := &engine.Model{
		Name: "mm1", TimeUnit: "s", Loads: []string{"0.5"},
		App: engine.AppConfig{Servers: 1, Capacity: 1},
		Services: []engine.Service{{Name: "Work", Steps: []engine.Step{
			{Name: "Process", Kind: engine.Local, ProcTime: dist.MustParse("Exp(1)"), OnSuccess: engine.Done, OnFailure: engine.Fail},
		}}},
		Entities: []engine.Entity{{
			Name: "Job", InterArrival: []engine.Dist{dist.MustParse("Exp(2)")},
			Stages: []engine.Stage{{Service: 0, OnSuccess: engine.End, OnFailure: engine.Exit}},
		}},
	}
	var runs []*engine.Result
	for rep := range 5 {
		r, err := engine.Run(m, engine.RunConfig{Seed: 1, Replication: rep, WarmUp: 100, Observations: 50_000})
		if err != nil {
			fmt.Println(err)
			return
		}
		runs = append(runs, r)
	}
	pool := runs[0]
	pool.Merge(runs[1:]...)
	fmt.Printf("%d replications, %d completed, mean response %.1f s (theory 2), interval under 0.1: %v, p95 %.0f s (theory ln 20 × 2 = 6)\n",
		pool.Replications, pool.Completed, pool.Response.Mean, pool.Response.CIHalfWidth95 < 0.1, pool.Response.P95)
	// Output: 5 replications, 250000 completed, mean response 2.0 s (theory 2), interval under 0.1: true, p95 6 s (theory ln 20 × 2 = 6)
}
