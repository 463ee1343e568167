package numtext_test

import (
	"fmt"

	"github.com/websim/websim/internal/numtext"
)

func ExampleGroup() {
	fmt.Println(numtext.Group(100000), numtext.Group(-2828908))
	// Output: 100,000 -2,828,908
}

func ExampleAsExcelKeeps() {
	tenth := 0.1
	fmt.Println(tenth*7, "->", numtext.AsExcelKeeps(tenth*7))
	fmt.Println(numtext.AsExcelKeeps(1.0/3), numtext.AsExcelKeeps(1234567890123456))
	// Output:
	// 0.7000000000000001 -> 0.7
	// 0.333333333333333 1.234567890123456e+15
}
