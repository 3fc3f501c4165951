package pairing

// C18-C21: minimise the score differences of the players who receive the
// same float as in the previous round (C18 downfloats, C19 upfloats), then
// as two rounds before (C20, C21). Each is a list of score differences
// (SDs), compared like a PSD: fewest occurrences of the biggest first.
//
// Weighing every SD that could occur as its own field overflows the weight
// in brackets with many MDP scores, but inside one bracket most of those
// SDs are already decided by the criteria above. The residents share one
// score r; an MDP scoring p either meets a resident (SD p-r) or floats on
// (SD p-r+2, against one point below the bracket), and C7 has already fixed
// how many MDPs of each score are paired. So, for a criterion on downfloats:
//
//   - the SD p-r+2 of a floating MDP is bigger than every SD made by the
//     lower MDP scores, and at each SD the pairs of the higher score are
//     fixed once its floaters are: the PSD comparison becomes "fewest
//     repeated downfloaters among the floating MDPs, score by score, highest
//     first";
//   - a resident downfloats only by floating on, with SD 2, which comes
//     after every MDP's float (SD at least 3) and next to pairs whose number
//     is fixed: "fewest repeated downfloaters among the floating residents".
//
// For upfloats only residents meeting an MDP upfloat, with SD p-r: "fewest
// repeated upfloaters meeting an MDP, MDP score by MDP score, highest
// first". Each count is a field as wide as the MDPs (or residents) of its
// score, since it counts at most one per such player: a few bits per MDP
// score instead of a field per possible SD.
//
// Approximate only where an MDP meets another MDP (the rules allow it; it
// is rare, both having been unpaired one bracket up): that pair is weighed
// as if the lower one were a resident.

// floatSD holds the C18-C21 fields of one bracket.
type floatSD struct {
	crits []floatSDCrit
}

// floatSDCrit is one of C18-C21: the float it repeats (dir, from the
// previous round for k = 0, two rounds before for k = 1) and its fields:
// mdp[l] for the MDPs scoring mdpLevels[l] (-1: nothing to weigh), res for
// the residents (downfloats only; -1: none).
type floatSDCrit struct {
	k, dir int
	mdp    []int
	res    int
}

// floatSDFields adds the C18-C21 fields, highest priority first, with
// bounded (maxEdge, maxSum) as matchBracket defines it.
func (t *tourney) floatSDFields(bracket []*entrant, nmdp int, mdpLevels []int, mdpCount []int64, level map[*entrant]int, bounded func(maxEdge, maxSum int64) int) *floatSD {
	sd := &floatSD{}
	for _, k := range [2]int{0, 1} {
		for _, dir := range [2]int{floatDown, floatUp} {
			c := floatSDCrit{k: k, dir: dir, mdp: filled(len(mdpLevels), -1), res: -1}
			if dir == floatDown {
				repeated := make([]int64, len(mdpLevels))
				for _, e := range bracket[:nmdp] {
					if e.floats[k] == floatDown {
						repeated[level[e]]++
					}
				}
				for l, n := range repeated {
					if n > 0 {
						c.mdp[l] = bounded(2, n)
					}
				}
				n := int64(0)
				for _, e := range bracket[nmdp:] {
					if e.floats[k] == floatDown {
						n++
					}
				}
				if n > 0 {
					c.res = bounded(2, n)
				}
			} else {
				some := false
				for _, e := range bracket[nmdp:] {
					some = some || e.floats[k] == floatUp
				}
				if some {
					for l, n := range mdpCount {
						c.mdp[l] = bounded(2, n)
					}
				}
			}
			sd.crits = append(sd.crits, c)
		}
	}
	return sd
}

// fill sets the C18-C21 values of a pair a-b inside the bracket. Downfloats:
// one per repeated downfloater paired (not floating on). Upfloats: one per
// MDP paired, except one whose lower opponent repeats an upfloat; a
// constant for every matching that pairs as many MDPs of each score (C7),
// less the repeated upfloaters by their opponents' scores.
func (sd *floatSD) fill(a, b *entrant, la, lb int, vals []int64) {
	for _, c := range sd.crits {
		for _, x := range [2]struct {
			e, o *entrant
			l    int
		}{{a, b, la}, {b, a, lb}} {
			e, o, l := x.e, x.o, x.l
			isMDP := l >= 0
			if c.dir == floatDown {
				if e.floats[c.k] != floatDown {
					continue
				}
				if isMDP && c.mdp[l] >= 0 {
					vals[c.mdp[l]]++
				} else if !isMDP && c.res >= 0 {
					vals[c.res]++
				}
				continue
			}
			if isMDP && c.mdp[l] >= 0 && !(o.pts < e.pts && o.floats[c.k] == floatUp) {
				vals[c.mdp[l]]++
			}
		}
	}
}
