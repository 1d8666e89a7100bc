// Package audit owns what bounds the audit table: the budget of refused
// requests recorded per client and per second, and the retention that
// keeps the table within its age and its count.
package audit
