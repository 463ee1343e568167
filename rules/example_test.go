package rules_test

import (
	"fmt"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/rules"
)

func Example() {
	names := rules.Names{
		Attrs:   []string{"Cards"},
		Params:  []string{"SwitchUtil"},
		Servers: []string{"GWay"},
	}
	mode, err := rules.Compile(`=IF(AppUtil < SwitchUtil, "parallel", "sequential")`, rules.Mode, names)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &engine.EvalContext{AppUtil: 0.3, Attrs: []float64{4}, Params: []float64{0.6}}
	parallel, _ := mode.Parallel(c)
	fmt.Println("parallel:", parallel)

	count, _ := rules.Compile(`Cards - 5`, rules.Count, names)
	count.Cell = "ProcData.xlsx!ASumSvc!F3"
	_, err = count.Number(c)
	fmt.Println(err)

	_, err = rules.Compile(`AppUtil < SwitchUtl ? "parallel" : "sequential"`, rules.Mode, names)
	fmt.Println(err)
	fmt.Println(err.(*rules.Error).Caret())
	// Output:
	// parallel: true
	// ProcData.xlsx!ASumSvc!F3: expression "Cards - 5" gave -1, which is not a whole number >= 0
	// unknown name "SwitchUtl" at column 11; did you mean "SwitchUtil"?
	// AppUtil < SwitchUtl ? "parallel" : "sequential"
	//           ^
}
