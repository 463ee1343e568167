package engine

import (
	"reflect"
	"testing"
)

// A step routes to Done or Fail, a stage to End or Exit: the two pairs
// have the same values (-1, -2) and distinct types, so that writing one
// where the other belongs does not compile.
func TestRoutingTargetsAreDistinctTypes(t *testing.T) {
	step, stage := reflect.TypeOf(Done), reflect.TypeOf(End)
	if step == stage || step != reflect.TypeOf(Step{}.OnSuccess) || stage != reflect.TypeOf(Stage{}.OnSuccess) {
		t.Errorf("Done is %v, End %v, Step.OnSuccess %v, Stage.OnSuccess %v; want StepTarget for steps, StageTarget for stages",
			step, stage, reflect.TypeOf(Step{}.OnSuccess), reflect.TypeOf(Stage{}.OnSuccess))
	}
	if reflect.TypeOf(Fail) != step || reflect.TypeOf(Exit) != stage {
		t.Errorf("Fail is %v, Exit %v", reflect.TypeOf(Fail), reflect.TypeOf(Exit))
	}
}
