package sim

// CopyFrom makes p an independent copy of q, reusing p's storage: a
// [Profile.Clone] that allocates only when p's storage is too small.
func (p *Profile) CopyFrom(q *Profile) {
	p.size = q.size
	p.times = append(p.times[:0], q.times...)
	p.free = append(p.free[:0], q.free...)
}
