package xlsx_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/websim/websim/internal/xlsx"
)

// Write a sheet from rows, save it, and read it back as a located table.
func Example() {
	dir, _ := os.MkdirTemp("", "xlsx-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "Servers.xlsx")

	b := xlsx.New()
	b.RenameSheet("Sheet1", "ServerInfo")
	b.WriteTable("ServerInfo", xlsx.Table{
		Columns: []xlsx.Column{{Header: "Server", Comment: "an external server's name"}, {Header: "Capacity", Format: xlsx.Count}},
		Rows:    [][]any{{"GWay", 4}, {"MTC", xlsx.Formula("=B2*2")}},
	})
	if err := b.Save(path); err != nil {
		fmt.Println(err)
		return
	}
	b.Close()

	b, err := xlsx.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	t, problems := b.ReadTable("ServerInfo", xlsx.Spec{Columns: []string{"Server", "Capacity", "TimeLimit"}, Required: []string{"Server", "Capacity"}})
	for _, r := range t.Rows {
		name, capacity := t.Get(r, "Server"), t.Get(r, "Capacity")
		fmt.Printf("%s %s: capacity %s (%s)\n", name.Ref, name.Text, capacity.Text, capacity.Ref)
	}
	fmt.Println(len(problems), "problems")
	// Output:
	// A2 GWay: capacity 4 (B2)
	// A3 MTC: capacity 8 (B3)
	// 0 problems
}
