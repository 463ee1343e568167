// Package lb is the load-balancer simulation of websim's second seed: requests
// of a few types arrive at random, a load balancer spreads them over servers,
// and each server serves each type first come, first served on its own share
// of that type's output capacity. It answers how many requests wait, for how
// long in all, and how that compares with the time spent serving them.
//
// Parameters come from a YAML file, as in the original tool:
//
//	number_of_servers: 6
//	number_of_requests_per_sec: 30
//	number_of_requests: 50000
//	method: roundrobin            # or busyness
//	seed: 1                       # optional, websim's addition (default 1)
//	types_of_requests:
//	  dma:
//	    output_capacity: 20       # units, dealt to the servers one by one
//	    proportion: 0.05          # share of the requests; all add up to 1
//	    avg_service_time_secs: 4.5
//	    deviation_service_time_secs: 1.5
//	  other:
//	    output_capacity: 60
//	    proportion: 0.95
//	    avg_service_time_secs: 1.15
//	    deviation_service_time_secs: 0.25
//
// or from its workbook twin (see NewParametersWorkbook): a sheet Settings with
// Name and Value columns for the top-level keys, and a sheet RequestTypes with
// a row per type and a column per type key.
//
// The model, kept from the original tool:
//
//   - a type's output_capacity C is dealt to the n servers one unit at a time,
//     round robin: server i gets floor(C/n) + (1 if i < C mod n). A server with
//     no unit of a type fails that type's requests (they are counted);
//   - inter-arrival times are exponential at number_of_requests_per_sec (a
//     fractional rate is used as given), service times Normal with values
//     <= 0 drawn again, the type drawn by its proportion;
//   - a request waits only when every unit of its type on its server is busy;
//     one that arrives exactly when a unit frees does not wait;
//   - roundrobin sends request k to server k mod n; busyness sends it to the
//     server with the fewest busy units of all types, the lowest number on
//     ties.
//
// Arrivals, types and service times come from three separate PCG streams
// seeded from the seed and the replication number, so two runs with the same
// seed see the same requests whatever the method or the number of servers
// (common random numbers: differences between methods are not noise).
//
// The shared pieces: service times are engine/dist's Normal, waits are
// kept in engine/stats' Histogram (the p95 within 0.2%), confidence
// intervals use engine/stats.StudentT, and workbooks are read and written
// through internal/xlsx (its limits, located problems, styles, owned-sheet
// marker and atomic save). The event core (a typed heap of departures and
// a ring buffer per pool) and the seed mixing are lb's own: they are a
// few lines typed for this model.
package lb
