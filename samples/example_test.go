package samples_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/samples"
)

func ExampleRegister() {
	gin.SetMode(gin.ReleaseMode)
	cfg := samples.Config{
		Username: "demo",
		Password: "demo-password",
		APIKey:   "demo-key",
		Name:     "Ada Lovelace",
		Email:    "ada@example.com",
	}
	router := gin.New()
	if !cfg.Enabled() {
		fmt.Println(samples.DisabledHint)
		return
	}
	if err := samples.Register(router, cfg); err != nil {
		fmt.Println(err)
		return
	}

	req := httptest.NewRequest(http.MethodGet, "/api/test", nil)
	req.SetBasicAuth("demo", "demo-password")
	req.Header.Set("X-API-KEY", "demo-key")
	w := httptest.NewRecorder()
	router.ServeHTTP(w, req)
	fmt.Println(w.Code, w.Body.String())
	// Output: 200 {"Name":"Ada Lovelace","Email":"ada@example.com"}
}
