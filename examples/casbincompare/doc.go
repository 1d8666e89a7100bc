// Package casbincompare holds a test that runs Casbin and rolegate on the
// same Casbin example policies and compares every check: the policy is
// imported the way "rolegatectl import casbin" does (casbinimport.Convert,
// one batch), and rolegate answers over its REST API on loopback. It is a
// module of its own so that Casbin stays out of rolegate's dependencies.
//
//	cd examples/casbincompare && go test ./...
//
// The models with role hierarchies and domains use role inheritance and
// scoped memberships.
package casbincompare
