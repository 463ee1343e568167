package templates

// mmcModel is an M/M/c queue whose answer is known: Poisson arrivals, one
// application server of c = 20 units, each request holding one unit for an
// Exp(1) processing time (no RAT, no external servers). The mean response
// is Erlang C's W = 1/μ + C(c, λ/μ)/(cμ − λ); the loads are named by the
// utilization ρ = λ/(cμ).
func mmcModel() *model {
	return &model{
		settings: withNotes([]setting{
			{"TimeUnit", "s", "Every time in this model is in seconds."},
			{"Seed", 1, ""},
			{"WarmUp", 1000, "1000 s of simulated time discarded before statistics start."},
			{"Observations", 100000, ""},
			{"Replications", 1, ""},
			{"Loads", "all", ""},
			{"AppServers", 1, "One server: the c of M/M/c is AppCapacity."},
			{"AppCapacity", 20, "c = 20 units, each serving one request at a time."},
			{"SelectionRule", "LBS", ""},
			{"RATParameter", 0, "No time to acquire a unit: a plain M/M/c queue."},
			{"TActive", 0, ""},
		}),
		loads: []string{"rho0.5", "rho0.8", "rho0.9"},
		arrivals: []arrival{{entity: "Job", interArrival: []string{
			"Exp(0.1)", "Exp(0.0625)", "Exp(0.0555556)",
		}}},
		entities: []entity{{name: "Job", services: []route{{service: "Work"}}}},
		services: []service{
			{name: "Work", steps: []step{{name: "Process", procTime: "Exp(1)"}}},
		},
	}
}
