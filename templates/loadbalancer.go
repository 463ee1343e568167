package templates

import (
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/lb"
)

// loadBalancerBook is the loadbalancer template's Parameters.xlsx: the
// original tool's example (lb.Sample, as samples/loadbalancer/sample1.yaml)
// laid out by package lb, stamped with the template version.
func loadBalancerBook() (*xlsx.Book, error) {
	f, err := lb.NewParametersWorkbook(lb.Sample())
	if err != nil {
		return nil, err
	}
	if err := stamp(f, "loadbalancer", "websim load-balancer parameters"); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
