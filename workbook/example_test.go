package workbook_test

import (
	"fmt"

	"github.com/websim/websim/workbook"
)

// Read the bundled M/M/c sample and list what it will run.
func ExampleRead() {
	plan, err := workbook.Read("../samples/mmc")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := plan.Scenarios[0].Model
	fmt.Printf("%s: %d scenario(s), loads %v, %d application server(s) of %d units, time in %s\n",
		plan.Model, len(plan.Scenarios), m.Loads, m.App.Servers, m.App.Capacity, plan.TimeUnit)
	// Output: mmc: 1 scenario(s), loads [rho0.5 rho0.8 rho0.9], 1 application server(s) of 20 units, time in s
}
