package bayeselo

// League is league, for the external tests.
var League = league
