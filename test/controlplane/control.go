package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The supervisor's control surface: HTTP over a unix socket in the state folder (mode 0700,
// so only its owner can reach it; nothing listens on a TCP port).
//
//	GET  /nodes                          every node agent: [{"name","heartbeat","podStatus"}]
//	POST /nodes/{name}                   register another node (a Node object and its agent)
//	POST /nodes/{name}/heartbeat/stop    stop the node's heartbeat (the kubelet "dies")
//	POST /nodes/{name}/heartbeat/start   restart it (the node posts Ready again at once)
//
// `controlplane node --dir DIR list|add|stop|start [NAME]` is the client for people.

const controlSocketName = "control.sock"

// maxUnixPath is sun_path's size on Linux (108) minus the trailing NUL.
const maxUnixPath = 107

func (s *supervisor) agent(name string) *nodeAgent {
	s.nodesMu.Lock()
	defer s.nodesMu.Unlock()
	return s.nodes[name]
}

func (s *supervisor) nodeStates() []nodeState {
	s.nodesMu.Lock()
	defer s.nodesMu.Unlock()
	states := make([]nodeState, 0, len(s.nodes))
	for _, a := range s.nodes {
		states = append(states, a.state())
	}
	sort.Slice(states, func(i, j int) bool { return states[i].Name < states[j].Name })
	return states
}

// addNode registers a node and starts its agent; an existing agent is returned as it is.
func (s *supervisor) addNode(ctx context.Context, name string) (*nodeAgent, error) {
	s.nodesMu.Lock()
	if a, ok := s.nodes[name]; ok {
		s.nodesMu.Unlock()
		return a, nil
	}
	a := &nodeAgent{name: name, client: s.client, watchClient: s.watchClient, interval: s.opts.heartbeatInterval, podStatus: s.opts.podStatus, logf: s.logf}
	s.nodes[name] = a
	s.nodesMu.Unlock()
	if err := a.register(ctx, s.stop); err != nil {
		s.nodesMu.Lock()
		delete(s.nodes, name)
		s.nodesMu.Unlock()
		return nil, err
	}
	return a, nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func (s *supervisor) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /nodes", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.nodeStates())
	})
	mux.HandleFunc("POST /nodes/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		a, err := s.addNode(ctx, name)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, a.state())
	})
	mux.HandleFunc("POST /nodes/{name}/heartbeat/{action}", func(w http.ResponseWriter, r *http.Request) {
		a := s.agent(r.PathValue("name"))
		if a == nil {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no node %q (see GET /nodes)", r.PathValue("name")))
			return
		}
		switch r.PathValue("action") {
		case "stop":
			a.setHeartbeat(false)
		case "start":
			a.setHeartbeat(true)
		default:
			writeError(w, http.StatusNotFound, "heartbeat actions are stop and start")
			return
		}
		writeJSON(w, http.StatusOK, a.state())
	})
	return mux
}

// serveControl listens on <dir>/control.sock until the supervisor stops.
func (s *supervisor) serveControl() (string, error) {
	path := filepath.Join(s.dir, controlSocketName)
	if len(path) > maxUnixPath {
		return "", fmt.Errorf("control socket path %s is longer than %d bytes (a unix socket limit): use a shorter --dir", path, maxUnixPath)
	}
	_ = os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		return "", fmt.Errorf("control socket: %w", err)
	}
	srv := &http.Server{Handler: s.controlHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-s.stop
		_ = srv.Close()
		_ = os.Remove(path)
	}()
	return path, nil
}

// runNode is `controlplane node`: the client of the control socket.
func runNode(args []string) int {
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	dir := fs.String("dir", "", "the control plane's state folder (the `dir` of its ready line; `npm run cluster` prints it)")
	socket := fs.String("socket", "", "the control socket (default <dir>/"+controlSocketName+")")
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: controlplane node (--dir DIR | --socket PATH) list | add NAME | stop NAME | start NAME\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	path := *socket
	if path == "" && *dir != "" {
		path = filepath.Join(*dir, controlSocketName)
	}
	rest := fs.Args()
	if path == "" || len(rest) == 0 {
		fs.Usage()
		return 2
	}
	var method, url string
	switch {
	case rest[0] == "list" && len(rest) == 1:
		method, url = http.MethodGet, "/nodes"
	case rest[0] == "add" && len(rest) == 2:
		method, url = http.MethodPost, "/nodes/"+rest[1]
	case (rest[0] == "stop" || rest[0] == "start") && len(rest) == 2:
		method, url = http.MethodPost, "/nodes/"+rest[1]+"/heartbeat/"+rest[0]
	default:
		fs.Usage()
		return 2
	}
	client := &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		}},
	}
	req, _ := http.NewRequest(method, "http://controlplane"+url, nil)
	resp, err := client.Do(req)
	if err != nil {
		var opErr *net.OpError
		if errors.As(err, &opErr) {
			fmt.Fprintf(os.Stderr, "controlplane node: cannot reach %s (is the control plane running?): %v\n", path, opErr.Err)
		} else {
			fmt.Fprintf(os.Stderr, "controlplane node: %v\n", err)
		}
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(body))
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		fmt.Fprintf(os.Stderr, "controlplane node: %s\n", msg)
		return 1
	}
	_, _ = os.Stdout.Write(body)
	return 0
}
