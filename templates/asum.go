package templates

import "fmt"

// asumModel is the paper's example (its section 4): the account-summary
// page ASUM of a web bank. The paper's tables are not public: the numbers
// are chosen on the paper's scale and kept fixed, so that results can be
// compared from release to release. Times are in ms. The external servers
// carry about 60% background load (BackgroundServiceTime /
// BackgroundInterArrival / Capacity).
func asumModel() *model {
	fig7 := func(servers int) string { return fmt.Sprintf("Fig. 7 (%d servers)", servers) }
	const fig8, fig9 = "Fig. 8 (selection rule)", "Fig. 9 (TActive)"
	return &model{
		settings: withNotes([]setting{
			{"TimeUnit", "ms", "Every time in this model is in milliseconds."},
			{"Seed", 1, ""},
			{"WarmUp", 20000, "20 s of simulated time discarded before statistics start."},
			{"Observations", 100000, ""},
			{"Replications", 1, ""},
			{"Loads", "all", "All ten load levels of Arrivals, L1 (light) to L10 (past saturation)."},
			{"AppServers", 10, "Ten application servers (the Experiments vary it)."},
			{"AppCapacity", 20, "20 AppRes units (processes) per application server."},
			{"SelectionRule", "LBS", ""},
			{"RATParameter", 50, "RAT = RATParameter * AppUtil (the default RAT): up to 50 ms to activate a unit on a busy server."},
			{"TActive", 0, "A released unit goes inactive at once (the Experiments try 5 and 20)."},
			{"SwitchUtil", 0.7, "A user parameter, read by ASumSvc's Mode: below this application-server utilization the card summaries are fetched in parallel, above it one after another. 2 = always parallel, 0 = always sequential."},
		}),
		servers: []server{
			{name: "DSS", capacity: 12, timeLimit: 1000, backgroundInterArrival: "Exp(20.8)", backgroundServiceTime: "Exp(150)"},
			{name: "CM", capacity: 15, timeLimit: 1000, backgroundInterArrival: "Exp(22.2)", backgroundServiceTime: "Exp(200)"},
			{name: "MTC", capacity: 25, timeLimit: 1000, backgroundInterArrival: "Exp(13.3)", backgroundServiceTime: "Exp(200)"},
			{name: "GWay", capacity: 90, timeLimit: 2000, backgroundInterArrival: "Exp(7.4)", backgroundServiceTime: "Exp(400)"},
			{name: "RP", capacity: 12, timeLimit: 1000, backgroundInterArrival: "Exp(20.8)", backgroundServiceTime: "Exp(150)"},
		},
		loads: []string{"L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10"},
		arrivals: []arrival{{entity: "ASUM", interArrival: []string{
			"Exp(40)", "Exp(30)", "Exp(25)", "Exp(22)", "Exp(20)", "Exp(18)", "Exp(16)", "Exp(14)", "Exp(13)", "Exp(12)",
		}}},
		attributes: [][3]string{{"ASUM", "Cards", "UniformInt(1,6)"}},
		entities: []entity{{name: "ASUM", services: []route{
			{"Start", "", "EXIT"},
			{"CardSvc", "", "EXIT"},
			{"ASumSvc", "", "EXIT"},
			{"Customization", "", "EXIT"},
		}}},
		experiments: &experiments{
			// Chart draws the paper's figures: Figure 7 (parallel,
			// sequential, mixed) per server count, Figure 8 (the selection
			// rules), Figure 9 (TActive values).
			columns: []string{"AppServers", "SwitchUtil", "SelectionRule", "TActive", "Chart"},
			rows: [][]any{
				{"P10", 10, 2, "LBS", 0, fig7(10)},
				{"S10", 10, 0, "LBS", 0, fig7(10)},
				{"M10", 10, 0.7, "LBS", 0, fig7(10) + ", " + fig8 + ", " + fig9},
				{"P8", 8, 2, "LBS", 0, fig7(8)},
				{"S8", 8, 0, "LBS", 0, fig7(8)},
				{"M8", 8, 0.7, "LBS", 0, fig7(8)},
				{"M10-Cyclic", 10, 0.7, "Cyclic", 0, fig8},
				{"M10-Random", 10, 0.7, "Random", 0, fig8},
				{"M10-TActive5", 10, 0.7, "LBS", 5, fig9},
				{"M10-TActive20", 10, 0.7, "LBS", 20, fig9},
			},
		},
		targets: []target{
			{"", "p95", 1000},
			{"", "failed", 0.05},
		},
		measured: true,
		services: []service{
			{name: "Start", steps: []step{
				{name: "Auth", procTime: "Exp(30)", successRate: 0.998, server: "DSS"},
			}},
			{name: "CardSvc", steps: []step{
				{name: "GetCards", procTime: "Exp(40)", successRate: 0.998, server: "CM"},
			}},
			{name: "ASumSvc", steps: []step{
				{name: "Parallel", nested: "GetASum", count: "Cards", mode: `AppUtil < SwitchUtil ? "parallel" : "sequential"`},
				{name: "Aggregate", procTime: "Exp(5)"},
			}},
			{name: "GetASum", steps: []step{
				{name: "Summary", nested: "GWaySvc", count: 1},
			}},
			{name: "GWaySvc", steps: []step{
				{name: "MTC", procTime: "Exp(20)", successRate: 0.999, server: "MTC"},
				{name: "GWay", procTime: "Exp(80)", successRate: 0.995, server: "GWay"},
			}},
			{name: "Customization", steps: []step{
				{name: "Promo", procTime: "Exp(30)", successRate: 0.999, server: "RP"},
			}},
		},
	}
}
