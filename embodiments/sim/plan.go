package sim

import (
	"container/heap"
	"math"
)

// gridRes is the occupancy grid's cell size in metres: fine enough for a 1 m
// doorway and a 0.25 m robot radius.
const gridRes = 0.1

// grid is the free space of the static map: a cell is free when the robot's
// disc centred there touches no wall or footprint (obstacles inflated by the
// robot radius).
type grid struct {
	origin Vec
	nx, ny int
	free   []bool
}

func newGrid(w *World) *grid {
	g := &grid{origin: w.Bounds.Min,
		nx: int(math.Ceil((w.Bounds.Max.X - w.Bounds.Min.X) / gridRes)),
		ny: int(math.Ceil((w.Bounds.Max.Y - w.Bounds.Min.Y) / gridRes))}
	g.free = make([]bool, g.nx*g.ny)
	for j := range g.ny {
		for i := range g.nx {
			g.free[j*g.nx+i] = w.free(g.center(i, j))
		}
	}
	return g
}

func (g *grid) center(i, j int) Vec {
	return Vec{g.origin.X + (float64(i)+0.5)*gridRes, g.origin.Y + (float64(j)+0.5)*gridRes}
}

func (g *grid) cell(p Vec) (int, int, bool) {
	i := int(math.Floor((p.X - g.origin.X) / gridRes))
	j := int(math.Floor((p.Y - g.origin.Y) / gridRes))
	return i, j, i >= 0 && j >= 0 && i < g.nx && j < g.ny
}

// plan runs A* (8-connected, Euclidean heuristic) from start to goal. Both end
// cells count as free: the caller has checked the exact poses, which may sit
// closer to an obstacle than a cell centre. It returns the waypoints from
// start to goal and the path length, or ok false when no path exists.
func (g *grid) plan(start, goal Vec) ([]Vec, float64, bool) {
	si, sj, ok1 := g.cell(start)
	gi, gj, ok2 := g.cell(goal)
	if !ok1 || !ok2 {
		return nil, 0, false
	}
	s, t := sj*g.nx+si, gj*g.nx+gi
	open := func(k int) bool { return k == s || k == t || g.free[k] }
	cost := make([]float64, len(g.free))
	prev := make([]int, len(g.free))
	for k := range cost {
		cost[k], prev[k] = math.Inf(1), -1
	}
	h := func(k int) float64 { return g.center(k%g.nx, k/g.nx).Dist(goal) }
	cost[s] = 0
	pq := &queue{{k: s, f: h(s)}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(item)
		if it.k == t {
			break
		}
		if it.f-h(it.k) > cost[it.k]+1e-9 {
			continue // stale entry
		}
		ci, cj := it.k%g.nx, it.k/g.nx
		for dj := -1; dj <= 1; dj++ {
			for di := -1; di <= 1; di++ {
				ni, nj := ci+di, cj+dj
				if (di == 0 && dj == 0) || ni < 0 || nj < 0 || ni >= g.nx || nj >= g.ny {
					continue
				}
				n := nj*g.nx + ni
				if !open(n) {
					continue
				}
				// A diagonal step must not cut an occupied corner.
				if di != 0 && dj != 0 && (!open(cj*g.nx+ni) || !open(nj*g.nx+ci)) {
					continue
				}
				c := cost[it.k] + gridRes*math.Hypot(float64(di), float64(dj))
				if c < cost[n] {
					cost[n], prev[n] = c, it.k
					heap.Push(pq, item{k: n, f: c + h(n)})
				}
			}
		}
	}
	if math.IsInf(cost[t], 1) {
		return nil, 0, false
	}
	var cells []int
	for k := t; k != -1; k = prev[k] {
		cells = append(cells, k)
	}
	path := []Vec{start}
	for i := len(cells) - 2; i >= 1; i-- {
		path = append(path, g.center(cells[i]%g.nx, cells[i]/g.nx))
	}
	path = append(path, goal)
	length := 0.0
	for i := 1; i < len(path); i++ {
		length += path[i].Dist(path[i-1])
	}
	return path, length, true
}

type item struct {
	k int
	f float64
}

// queue is a min-heap on f; ties broken by cell index so runs are identical.
type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(a, b int) bool {
	if q[a].f != q[b].f {
		return q[a].f < q[b].f
	}
	return q[a].k < q[b].k
}
func (q queue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
