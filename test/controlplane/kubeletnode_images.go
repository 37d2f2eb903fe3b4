package main

// The real node's images, made at start and imported into containerd, never pulled:
//
//	registry.k8s.io/pause:3.10.1          /pause: the static podtools binary (podtools/main.go)
//	docker.io/library/busybox:1.35.0-local   Debian's static /bin/busybox with its applet links,
//	                                      plus /bin/hog (podtools: allocates and touches N MiB)
//
// Each is a one-layer docker-archive (the `docker save` layout), which `ctr images import` reads.
// The busybox tag is not `latest`, so pods default to imagePullPolicy IfNotPresent and the kubelet
// reports "already present on machine".

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

const busyboxImage = "docker.io/library/busybox:1.35.0-local"

type nodeImage struct {
	ref     string
	archive string
}

type layerFile struct {
	name  string
	mode  int64
	data  []byte
	link  string // symlink target
	isDir bool
}

func writeNodeImages(dir, podTools string) ([]nodeImage, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tools, err := os.ReadFile(podTools)
	if err != nil {
		return nil, err
	}
	busybox, err := os.ReadFile("/bin/busybox")
	if err != nil {
		return nil, err
	}
	out, err := exec.Command("/bin/busybox", "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("/bin/busybox --list: %w", err)
	}
	applets := strings.Fields(string(out))
	sort.Strings(applets)

	base := []layerFile{
		{name: "bin", isDir: true, mode: 0o755}, {name: "etc", isDir: true, mode: 0o755},
		{name: "tmp", isDir: true, mode: 0o1777}, {name: "proc", isDir: true, mode: 0o555},
		{name: "sys", isDir: true, mode: 0o555}, {name: "dev", isDir: true, mode: 0o755},
		{name: "var", isDir: true, mode: 0o755}, {name: "root", isDir: true, mode: 0o700},
		{name: "etc/passwd", mode: 0o644, data: []byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n")},
		{name: "etc/group", mode: 0o644, data: []byte("root:x:0:\nnogroup:x:65534:\n")},
	}
	bb := append(append([]layerFile{}, base...),
		layerFile{name: "bin/busybox", mode: 0o755, data: busybox},
		layerFile{name: "bin/hog", mode: 0o755, data: tools})
	for _, a := range applets {
		if a != "busybox" && a != "hog" {
			bb = append(bb, layerFile{name: "bin/" + a, link: "busybox"})
		}
	}
	pause := []layerFile{{name: "pause", mode: 0o755, data: tools}}
	var images []nodeImage
	for _, spec := range []struct {
		ref, file  string
		files      []layerFile
		entrypoint []string
		cmd        []string
	}{
		{pauseImage, "pause.tar", pause, []string{"/pause"}, nil},
		{busyboxImage, "busybox.tar", bb, nil, []string{"sh"}},
	} {
		path := filepath.Join(dir, spec.file)
		if err := writeDockerArchive(path, spec.ref, spec.files, spec.entrypoint, spec.cmd); err != nil {
			return nil, err
		}
		images = append(images, nodeImage{ref: spec.ref, archive: path})
	}
	return images, nil
}

func writeDockerArchive(path, ref string, files []layerFile, entrypoint, cmd []string) error {
	var layer bytes.Buffer
	tw := tar.NewWriter(&layer)
	epoch := time.Unix(0, 0)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, ModTime: epoch, Format: tar.FormatPAX}
		switch {
		case f.isDir:
			h.Typeflag, h.Name = tar.TypeDir, f.name+"/"
		case f.link != "":
			h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, f.link, 0o777
		default:
			h.Typeflag, h.Size = tar.TypeReg, int64(len(f.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(f.data); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	layerSum := sha256.Sum256(layer.Bytes())
	layerHex := hex.EncodeToString(layerSum[:])
	config, err := json.Marshal(map[string]any{
		"architecture": runtime.GOARCH,
		"os":           "linux",
		"created":      epoch.UTC().Format(time.RFC3339),
		"config":       map[string]any{"Env": []string{"PATH=/bin"}, "Entrypoint": entrypoint, "Cmd": cmd},
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + layerHex}},
		"history":      []map[string]any{{"created": epoch.UTC().Format(time.RFC3339), "created_by": "test/controlplane kubelet-node"}},
	})
	if err != nil {
		return err
	}
	configSum := sha256.Sum256(config)
	configName := hex.EncodeToString(configSum[:]) + ".json"
	manifest, err := json.Marshal([]map[string]any{{"Config": configName, "RepoTags": []string{ref}, "Layers": []string{layerHex + "/layer.tar"}}})
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	ow := tar.NewWriter(f)
	for _, e := range []struct {
		name string
		data []byte
	}{{configName, config}, {layerHex + "/layer.tar", layer.Bytes()}, {"manifest.json", manifest}} {
		if err := ow.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), ModTime: epoch, Typeflag: tar.TypeReg}); err != nil {
			f.Close()
			return err
		}
		if _, err := ow.Write(e.data); err != nil {
			f.Close()
			return err
		}
	}
	if err := ow.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
