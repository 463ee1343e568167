// Package rules compiles the expressions users write in workbook cells
// (RAT, SuccessRate, Count, Mode, Condition, attribute values) and
// evaluates them inside the simulation's event loop.
//
// An expression is written in the language of github.com/expr-lang/expr and
// sees:
//
//	AppUtil               busy fraction of the request's application server, 0..1
//	Now                   the simulated time
//	Load                  the label of the load level, as text ("L5")
//	Attempt               the request's attempt number, from 1
//	Copy                  the number, from 1, of the Parallel copy (or sequential
//	                      repetition) of a nested service the step belongs to; 0 outside
//	Elapsed               in RetryProbability: the failed attempt's time from its
//	                      start to its failure; 0 elsewhere
//	TimedOut              in RetryProbability: true when a TimeLimit failed the
//	                      attempt; false elsewhere
//	Cards, SwitchUtil...  every request attribute and every Settings name
//	util("GWay")          busy fraction of a server ("App": the application servers)
//	queue("GWay")         jobs waiting for a server
//	busy("GWay")          busy units of a server
//
// and the functions abs, ceil, floor, round, min, max, exp, log (natural,
// Excel's LN), sqrt and pow(x, y) (in any case), int, float, len, upper,
// lower and trim. exp, log, sqrt and pow check their domain at every
// evaluation: the log of a number <= 0, the square root of one < 0, or a
// result that is not a finite number (exp(1000), pow(-8, 0.5)) is a
// *RunError naming Expr.Cell, like any other run-time fault. Nothing reads the clock, the disk or
// the network, and no expression loops: ranges (1..n), closures (map,
// filter...), "let" and ";" are refused, so the work of an evaluation is
// bounded by the length of the expression.
//
// Names are matched exactly first, then ignoring case (cards finds Cards).
// AppUtil, Now, Load, Attempt, Copy, Elapsed and TimedOut come first, then
// attributes, then Settings.
// A name, function or server that exists nowhere is a compile error that
// suggests the closest one. A Mode cell may write parallel and sequential
// without quotes; its text is read in any case.
//
// # Excel habits
//
// Users who live in Excel write formulas; these are accepted, rewritten by a
// tokenizer (never inside a string literal), with every error column still
// pointing into the text as written:
//
//	written                  read as                   note
//	=AppUtil*2               AppUtil*2                 leading "=" ignored
//	a <> b                   a != b
//	a = b                    a == b                    a single "=" compares
//	TRUE, False              true, false               any case
//	AND(a, b, ...)           a and b and ...           any case, one or more conditions
//	OR(a, b, ...)            a or b or ...             any case, one or more conditions
//	NOT(a)                   not a                     any case
//	IF(c, a, b)              c ? a : b                 any case; exactly 3 arguments
//	ABS, MIN, MAX, ROUND...  abs, min, max, round      ROUND takes one argument
//
// Refused, with a hint saying what to write: ";" between arguments (write
// ","), "&" (write and), "=<" and "=>" (write <= and >=), MOD (a % b), SUM
// (a + b), POWER (pow(a, b) or a ^ b), LN (log), ROUNDUP (ceil), ROUNDDOWN (floor), now() (Now,
// the simulated time). expr's own "if c { a } else { b }" is not available:
// IF is a function here.
//
// # Kinds and errors
//
// Compile checks what an expression yields against its Kind when the model
// is read: a Mode must give text, a Bool true or false, the others a number;
// constant results (including each branch of a condition, as in
// x ? "parallel" : "sequencial") are checked against the range too. What is
// known only at run time is checked at every evaluation: a Count that gives
// -1 or 2.5, a Probability 1.5, a Time below 0, a Mode "paralel", or a
// division by zero is a *RunError naming Expr.Cell, the value and what was
// expected.
//
// Compile errors are *Error values: Error() is one line with a 1-based
// column, a closest-name suggestion and a hint,
//
//	unknown name "SwitchUtl" at column 11; did you mean "SwitchUtil"?
//	missing ")" to close the "(" of column 3 at column 51
//
// and Caret() shows the expression with a caret under the column.
//
// # Speed
//
// expr's virtual machine keeps every value in an interface, so each number
// it computes costs an allocation (about 500 ns and 3 allocations for a
// typical Mode cell). Expressions made of numbers, conditions, text
// constants, the names above and the math functions (nearly every cell) are
// therefore turned into typed closures that evaluate in 15 to 30 ns without
// allocating; the others run on one vm.VM per EvalContext, kept in
// EvalContext.Machine with a small memory budget. Tests and the fuzz target
// check that both give the same results.
package rules
