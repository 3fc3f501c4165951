// Package bayeselo owns the rating list that Rémi Coulom's BayesElo computes
// with its default command sequence (elo, mm, exactdist, ratings): the same
// model, the same prior, the same iteration and stopping rule, the same
// interval construction and the same columns, so that its numbers can be
// quoted where BayesElo's are (Gomocup rates every engine this way). It also
// gives BayesElo's likelihood of superiority (los). The math is pure: no
// I/O, no goroutines.
//
// What BayesElo computes, read from its source (CBradleyTerry.cpp,
// CCondensedResults.cpp, CEloRatingCUI.cpp, CCDistribution.cpp):
//
//   - The model: a game between White (here: the engine that moved first)
//     rated w and Black rated b, with Δ = w - b, is won by White with
//     probability f(Δ + advantage - drawelo), lost with f(-Δ - advantage -
//     drawelo), drawn otherwise, f(x) = 1/(1+10^(-x/400)). `mm` without
//     arguments estimates neither parameter: advantage = 32.8 and
//     drawelo = 97.3 stay at their defaults.
//   - The prior: `elo` adds 2 virtual draws per player, spread over its
//     opponents in proportion to the games played against each, a quarter
//     of each share on each of the four colour/draw cells of both sides of
//     the pair (CCondensedResults::AddPrior, in single precision).
//   - `mm`: Hunter's minorization-maximization on γ = 10^(elo/400), one
//     Gauss-Seidel sweep per iteration over the players from the last to the
//     first, from γ = 1, stopping when no γ moved by a relative 1e-5 or after
//     10000 sweeps; the ratings are then centred on 0 and reported times the
//     scale 4x/(1+x)², x = 10^(-drawelo/400), which makes a small Elo
//     difference mean what it means without draws.
//   - `exactdist`: for each player, the likelihood of its own games as a
//     function of its rating on a grid of 1001 points over [-1500, 1500]
//     (the others moved by the opposite amount shared out, keeping the mean),
//     normalised; the 95% interval's ends are where the trapezoid sums from
//     each end reach 2.5%, interpolated linearly.
//   - `los`: the covariance of the centred ratings from the full Hessian of
//     the log-likelihood, and P(rᵢ > rⱼ) = erfc((rⱼ-rᵢ)/√(2σ²ᵢⱼ))/2.
//
// Where this package differs from the C++ it is in cost, never in result:
// the grid is evaluated only where the likelihood is within e⁻³⁰ of its
// peak (the rest moves an interval by less than a millionth of a point),
// with four logarithms per opponent and point instead of four powers and
// six logarithms.
package bayeselo
