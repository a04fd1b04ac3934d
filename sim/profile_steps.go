package sim

// Step returns step i of the profile (0 <= i < [Profile.Len]): its start
// time and the processors free from then until the next step. Step 0
// starts at the origin. Policies that walk the profile's free blocks (the
// moldable policies' "every profile step" candidates) use it.
func (p *Profile) Step(i int) (at Time, free int) { return p.times[i], p.free[i] }
