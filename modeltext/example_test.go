package modeltext_test

import (
	"fmt"
	"os"

	"github.com/websim/websim/modeltext"
)

func ExampleDiff() {
	a, _ := modeltext.Parse("a.yaml", []byte(`SvcData.xlsx:
  ServerInfo:
    - [Server, Capacity]
    - {Server: GWay, Capacity: 90}
    - {Server: DSS, Capacity: 12}
`))
	b, _ := modeltext.Parse("b.yaml", []byte(`SvcData.xlsx:
  ServerInfo:
    - [Server, Capacity]
    - {Server: MTC, Capacity: 25}
    - {Server: GWay, Capacity: 60}
    - {Server: DSS, Capacity: 12}
`))
	for _, d := range modeltext.Diff(a, b) {
		fmt.Println(d)
	}
	// Output:
	// SvcData.xlsx!ServerInfo!A2 (MTC): row added: Server MTC, Capacity 25
	// SvcData.xlsx!ServerInfo!B3 (GWay, Capacity): 90 -> 60
}

func ExampleModel_WriteText() {
	m, err := modeltext.Parse("hand-written.yaml", []byte(`SvcData.xlsx:
  ServerInfo:
    - [Server, Capacity, TimeLimit]
    - {Server: GWay, Capacity: {formula: =2*45, value: 90}, TimeLimit: 2.0e3}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m.WriteText(os.Stdout)
	// Output:
	// SvcData.xlsx:
	//   ServerInfo:
	//     - [Server, Capacity, TimeLimit]
	//     - Server: GWay
	//       Capacity: {formula: =2*45, value: 90}
	//       TimeLimit: 2000
}

func ExampleParse() {
	_, err := modeltext.Parse("model.yaml", []byte(`SvcData.xlsx:
  ServerInfo:
    - [Server, Capacity]
    - {Server: GWay, Capacty: 90}
    - {Server: DSS, Capacity: [12]}
`))
	fmt.Println(err)
	// Output:
	// model.yaml:4:22: sheet ServerInfo: unknown column "Capacty"; expected a header of the sheet's first row (Server, Capacity) or a column letter such as (C)
	// model.yaml:5:31: expected a cell: a number, a text, true or false, or a formula {formula: =A1*2, value: 4}
}
