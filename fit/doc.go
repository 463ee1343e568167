// Package fit fits the distributions that workbook cells accept to
// measured times, ranks the fits, and prints the best as a cell.
//
// Read takes what `websim fit DATA` takes: a CSV file (its first numeric
// column, or the column with a given header) or a workbook column written
// Book.xlsx!Sheet!Column. Every value must be a number above 0; every
// problem comes back at once, located ("data.csv:17: \"abc\" is not a
// number"), as Problems.
//
// Distributions fits, by maximum likelihood, every family that suits
// positive times, with its parameters in the order and meaning of the
// cells (engine/dist):
//
//	Exp(mean)  Erlang(k,mean)  Gamma(shape,scale)  LogNormal(mean,sd)
//	Weibull(shape,scale)  Normal(mean,sd)  Uniform(min,max)
//	Triangular(min,mode,max)  Const(x)
//
// LogNormal's mean and sd are those of the values, not of their logarithm.
// Normal is fitted as the model draws it: truncated at 0 (values <= 0 are
// drawn again). Const is the one fit when every value is the same.
//
// The fits are ranked by AIC (2k - 2 log L). Each has its Kolmogorov-Smirnov
// distance to the data and a parametric bootstrap p-value, valid although
// the parameters are estimated: B samples are drawn from the fit with the
// model's own sampler, each is refitted, and p = (1 + #{D* >= D}) / (1 + B).
// Above Options.TestSize values the test runs on a seeded random subsample.
//
// Each fit carries its cell's mean and sd, as the model draws it, beside
// the data's: a service time's mean is the load it offers, so a best fit
// whose mean is off the data's (outside the range that as many of its
// draws would average, and by more than 1%) is marked, and Result.KeepsMean
// offers a cell with the data's mean and sd instead.
//
// WriteWorkbook writes the ranking with a histogram of the data under the
// best fits' densities and a Q-Q plot of the best fit, through websim's
// Excel layer (internal/xlsx), as readWorkbook reads a workbook's column.
package fit
