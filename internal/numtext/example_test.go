package numtext_test

import (
	"fmt"

	"github.com/websim/websim/internal/numtext"
)

func ExampleGroup() {
	fmt.Println(numtext.Group(100000), numtext.Group(-2828908))
	// Output: 100,000 -2,828,908
}
