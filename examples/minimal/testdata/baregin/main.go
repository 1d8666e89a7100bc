// Command baregin is a bare Gin app, the anchor for the weight of the
// minimal example: TestMinimalWeight builds both.
package main

import "github.com/gin-gonic/gin"

func main() {
	r := gin.Default()
	r.GET("/", func(c *gin.Context) { c.String(200, "ok") })
	r.Run()
}
