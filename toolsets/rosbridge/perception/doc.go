// Package perception reads what a ROS 2 robot publishes about the world
// into values the observation can hold: the TF tree (Buffer folds /tf and
// /tf_static, Tree.Lookup composes a transform across it, with the age of
// its oldest dynamic link) and raw camera images (RawImage, as PNG). Every
// message comes from outside Thea, so each is checked as it is read: a
// transform with a null number or a zero rotation is refused, a hostile
// tree is bounded, an image's sizes cannot overflow.
//
// It holds no spec: the toolset kind (toolsets/rosbridge) decides which
// topics and frames a section reads and evaluates its exprs; this package
// is the geometry and the decoding underneath.
package perception
