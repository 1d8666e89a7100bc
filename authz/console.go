package authz

import (
	"net/http"
	"path"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/console"
)

// ConsoleMode says whether Mount serves the admin console under
// <mount>/console/. The zero value, ConsoleAuto, serves it when admin keys
// (ClientKey or ClientKeys) are configured: in open mode any UUID v4 is a
// namespace, and a console open to anybody is better asked for.
type ConsoleMode int

const (
	// ConsoleAuto serves the console when admin keys are configured.
	ConsoleAuto ConsoleMode = iota
	// ConsoleOn serves the console (AUTH_ENABLE_CONSOLE=true).
	ConsoleOn
	// ConsoleOff never serves it (AUTH_ENABLE_CONSOLE=false).
	ConsoleOff
)

// ConsoleEnabled reports whether Mount serves the admin console.
func (az *Authz) ConsoleEnabled() bool {
	switch az.cfg.Console {
	case ConsoleOn:
		return true
	case ConsoleOff:
		return false
	}
	return !az.open()
}

// consolePaths are the routes of the console, for refuseShadowing.
var consolePaths = []restMethodPath{
	{http.MethodGet, "/console"}, {http.MethodGet, "/console/*filepath"},
}

// mountConsole registers the console under g: <base>/console redirects to
// <base>/console/, which serves the page; the rest are its assets.
func (az *Authz) mountConsole(g gin.IRouter, basePath string) {
	prefix := path.Join(basePath, "console")
	files := http.StripPrefix(prefix, console.Handler())
	serve := gin.WrapH(files)
	g.GET("/console", func(c *gin.Context) { c.Redirect(http.StatusMovedPermanently, prefix+"/") })
	g.GET("/console/*filepath", serve)
	g.HEAD("/console/*filepath", serve)
	az.log.Info("admin console enabled", "path", prefix+"/")
}
