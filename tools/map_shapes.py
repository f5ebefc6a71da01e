#!/usr/bin/env python3
"""Derives a board's map shapes from public-domain Natural Earth geography.

    python3 tools/map_shapes.py COUNTRIES.json games/<id>/map/definition.txt

COUNTRIES.json is the TopoJSON file `countries-50m.json` of the npm package
world-atlas (Natural Earth 1:50m Admin 0 countries, public domain; the
package is ISC-licensed). Get it once, outside the repository:

    cd /tmp && npm pack world-atlas && tar xzf world-atlas-*.tgz
    python3 tools/map_shapes.py /tmp/package/countries-50m.json \\
        games/aae/map/definition.txt

It writes `shapes.json` beside the definition: the board's own data, which
the map renderer (src/report/map/) reads and which is committed. Python 3
standard library only. The definition (our own) says, line by line:

    title TEXT
    view equirect|miller LON_LEFT LON_RIGHT LAT_BOTTOM LAT_TOP WIDTH
    squeeze LON_FROM LON_TO FACTOR   that band of longitudes drawn FACTOR as
                              wide (an ocean narrowed so the land gets room;
                              a FACTOR above 1 widens the band)
    stretch_lat LAT_FROM LAT_TO FACTOR   that band of latitudes drawn FACTOR
                              as tall
    tolerance PIXELS          simplification (Douglas-Peucker), default 1.0
    min_area PIXELS2          smaller islands are dropped, default 6
    land NAME = COUNTRY, COUNTRY*, ... @ LON LAT [@ LON LAT ...] [label LON LAT]
    sea NAME @ LON LAT [@ LON LAT ...] [label LON LAT]
    include PATH              another definition's lines (relative path)
    omit NAME                 drops the spaces of that name defined so far
                              (a board that changes an included one)

A land territory is the union of its countries (Natural Earth's short names,
`United States of America`, `Russia`); a country marked `*` is split among
every territory that marks it, each taking the part nearest to its own
points (Voronoi cells of the points, in map coordinates). Sea zones are the
Voronoi cells of the sea points over the whole view, drawn under the land.
The first point of a space is where its label and units go, unless `label`
gives another place (a point that cuts nothing). The name `-`
takes a part for no space: background land, or water that is no sea zone (a
lake such as the Caspian). Countries no territory names are background land.
Nothing here comes from any game's map images or polygons.
"""

import json
import math
import os
import sys

PROVENANCE = (
    "Shapes derived by tools/map_shapes.py from Natural Earth 1:50m Admin 0 "
    "countries (public domain, naturalearthdata.com), via the world-atlas "
    "TopoJSON package; territory and sea-zone partitions from our own points "
    "in definition.txt. This derived data is ours and may be shipped."
)


def read_definition(path, out=None):
    out = out if out is not None else {
        "title": "", "view": None, "tolerance": 1.0, "min_area": 6.0,
        "squeeze": [], "stretch_lat": [], "spaces": []}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            rest = rest.strip()
            where = f"{path}:{number}"
            if word == "include":
                read_definition(os.path.join(os.path.dirname(path), rest), out)
            elif word == "omit":
                kept = [s for s in out["spaces"] if s["name"] != rest]
                if len(kept) == len(out["spaces"]):
                    sys.exit(f"{where}: no space {rest!r} to omit")
                out["spaces"] = kept
            elif word == "title":
                out["title"] = rest
            elif word == "view":
                parts = rest.split()
                if len(parts) != 6 or parts[0] not in ("equirect", "miller"):
                    sys.exit(f"{where}: view equirect|miller L R B T WIDTH")
                out["view"] = (parts[0], *map(float, parts[1:]))
            elif word == "squeeze":
                a, b, f = map(float, rest.split())
                out["squeeze"].append((a, b, f))
            elif word == "stretch_lat":
                a, b, f = map(float, rest.split())
                out["stretch_lat"].append((min(a, b), max(a, b), f))
            elif word == "tolerance":
                out["tolerance"] = float(rest)
            elif word == "min_area":
                out["min_area"] = float(rest)
            elif word in ("land", "sea"):
                rest, _, label = rest.partition(" label ")
                head, *points = rest.split("@")
                if not points:
                    sys.exit(f"{where}: a space needs at least one point")
                pts = []
                for p in points:
                    lon, lat = map(float, p.split())
                    pts.append((lon, lat))
                countries = []
                if word == "land":
                    name, eq, list_ = head.partition("=")
                    if not eq:
                        sys.exit(f"{where}: land NAME = COUNTRIES @ LON LAT")
                    for c in list_.split(","):
                        c = c.strip()
                        if c:
                            countries.append((c.rstrip("*"), c.endswith("*")))
                else:
                    name = head
                out["spaces"].append({
                    "kind": word, "name": name.strip(), "points": pts,
                    "label": tuple(map(float, label.split())) if label else pts[0],
                    "countries": countries, "where": where})
            else:
                sys.exit(f"{where}: unknown word {word!r}")
    return out


class Projection:
    def __init__(self, view, squeeze=(), stretch_lat=()):
        kind, left, right, bottom, top, width = view
        self.kind, self.left = kind, left
        # Squeezed bands, as offsets from the left edge.
        self.squeeze = [((a - left) % 360, (a - left) % 360 + (b - a) % 360, f)
                        for a, b, f in squeeze]
        self.full = self.stretch(360.0)
        self.span = self.stretch((right - left) % 360 or 360)
        self.k = width / self.span
        # Equirectangular keeps distances true along the middle parallel.
        self.ky = self.k
        if kind == "equirect":
            self.ky = self.k / math.cos(math.radians((top + bottom) / 2))
        self.top_y = self.raw_y(top)
        self.bands = [(self.raw_y(hi) - self.top_y, self.raw_y(lo) - self.top_y, f)
                      for lo, hi, f in stretch_lat]
        self.width = round(width)
        self.height = round(self.stretch_y(self.raw_y(bottom) - self.top_y) * self.ky)

    def stretch_y(self, v):
        out = v
        for a, b, f in self.bands:
            out += (f - 1) * max(0.0, min(v, b) - a)
        return out

    def raw_y(self, lat):
        phi = math.radians(max(-85.0, min(85.0, lat)))
        if self.kind == "miller":
            return -math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * phi)))
        return -lat

    def stretch(self, u):
        """Degrees east of the left edge, in squeezed degrees (0 <= u <= 360)."""
        out = u
        for a, b, f in self.squeeze:
            out -= (1 - f) * max(0.0, min(u, b) - a)
        return out

    def lon_x(self, lon):
        u = lon - self.left
        turns = math.floor(u / 360)
        return (turns * self.full + self.stretch(u - 360 * turns)) * self.k

    def xy(self, lon, lat):
        return (self.lon_x(lon), self.stretch_y(self.raw_y(lat) - self.top_y) * self.ky)

    def point(self, lon, lat):
        lon = self.left + (lon - self.left) % 360
        return self.xy(lon, lat)


def decode_arcs(topo):
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def douglas_peucker(pts, tol):
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = pts[a], pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, at = -1.0, -1
        for i in range(a + 1, b):
            px, py = pts[i]
            if norm == 0:
                d = math.hypot(px - ax, py - ay)
            else:
                d = abs(dy * px - dx * py + bx * ay - by * ax) / norm
            if d > best:
                best, at = d, i
        if best > tol:
            keep[at] = True
            stack.append((a, at))
            stack.append((at, b))
    return [p for p, k in zip(pts, keep) if k]


def country_rings(topo, arcs, name):
    """The rings (lists of lon/lat) of one country, arcs joined."""
    for g in topo["objects"]["countries"]["geometries"]:
        if g.get("properties", {}).get("name") != name:
            continue
        polygons = g["arcs"] if g["type"] == "MultiPolygon" else [g["arcs"]]
        rings = []
        for polygon in polygons:
            for ring in polygon:
                pts = []
                for i in ring:
                    arc = arcs[i] if i >= 0 else arcs[~i][::-1]
                    pts.extend(arc if not pts else arc[1:])
                rings.append(pts)
        return rings
    return None


def unwrap(ring):
    """Keeps a ring continuous across the antimeridian."""
    out = [ring[0]]
    for lon, lat in ring[1:]:
        prev = out[-1][0]
        while lon - prev > 180:
            lon -= 360
        while prev - lon > 180:
            lon += 360
        out.append((lon, lat))
    return out


def clip(poly, a, b, c):
    """Sutherland-Hodgman: the part of poly where a*x + b*y <= c."""
    if not poly:
        return poly
    out = []
    prev = poly[-1]
    pin = a * prev[0] + b * prev[1] <= c
    for cur in poly:
        cin = a * cur[0] + b * cur[1] <= c
        if cin != pin:
            dp = a * prev[0] + b * prev[1] - c
            dc = a * cur[0] + b * cur[1] - c
            t = dp / (dp - dc)
            out.append((prev[0] + t * (cur[0] - prev[0]),
                        prev[1] + t * (cur[1] - prev[1])))
        if cin:
            out.append(cur)
        prev, pin = cur, cin
    return out


def clip_frame(poly, w, h):
    for a, b, c in ((-1, 0, 0), (1, 0, w), (0, -1, 0), (0, 1, h)):
        poly = clip(poly, a, b, c)
    return poly


def clip_cell(poly, p, others):
    """The part of poly nearer to p than to any of others."""
    for q in others:
        if q == p:
            continue
        a, b = q[0] - p[0], q[1] - p[1]
        c = (q[0] ** 2 + q[1] ** 2 - p[0] ** 2 - p[1] ** 2) / 2
        poly = clip(poly, a, b, c)
        if not poly:
            break
    return poly


def area(poly):
    s = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        s += x0 * y1 - x1 * y0
    return abs(s) / 2


def merge(rings):
    """Rings rounded to whole pixels, with the edges that two rings share
    (the border between two countries or two cells of one space) removed, so
    a space is drawn as one outline. Points a pixel apart are taken as one,
    and an edge is split where another ring's point lies on it, so that the
    two copies of a shared border match."""
    snapped = {}

    def snap(x, y):
        p = (round(x), round(y))
        if p in snapped:
            return snapped[p]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = snapped.get((p[0] + dx, p[1] + dy))
                if q is not None:
                    snapped[p] = q
                    return q
        snapped[p] = p
        return p

    cleaned = []
    for ring in rings:
        pts = []
        for x, y in ring:
            p = snap(x, y)
            if not pts or p != pts[-1]:
                pts.append(p)
        while len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        if len(pts) >= 3:
            cleaned.append(pts)
    vertices = sorted({p for r in cleaned for p in r})
    edges = []
    for pts in cleaned:
        for a, b in zip(pts, pts[1:] + pts[:1]):
            (ax, ay), (bx, by) = a, b
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            inner = []
            if length2 > 4:
                x0, x1 = min(ax, bx) - 1, max(ax, bx) + 1
                y0, y1 = min(ay, by) - 1, max(ay, by) + 1
                for v in vertices:
                    if v == a or v == b or not (x0 <= v[0] <= x1 and y0 <= v[1] <= y1):
                        continue
                    t = ((v[0] - ax) * dx + (v[1] - ay) * dy) / length2
                    if 0 < t < 1:
                        cross = (v[0] - ax) * dy - (v[1] - ay) * dx
                        if cross * cross <= 2.25 * length2:
                            inner.append((t, v))
            chain = [a] + [v for _, v in sorted(inner)] + [b]
            edges.extend(zip(chain, chain[1:]))
    count = {}
    for e in edges:
        count[e] = count.get(e, 0) + 1
    kept = []
    for a, b in edges:
        if count.get((b, a), 0) > 0 and count.get((a, b), 0) > 0:
            count[(b, a)] -= 1
            count[(a, b)] -= 1
            continue
        if count.get((a, b), 0) > 0:
            kept.append((a, b))
    out_of = {}
    for a, b in kept:
        out_of.setdefault(a, []).append(b)
    merged = []
    for a, _ in kept:
        if not out_of.get(a):
            continue
        ring = [a]
        cur = a
        while out_of.get(cur):
            cur = out_of[cur].pop()
            if cur == a:
                break
            ring.append(cur)
        if len(ring) >= 3:
            merged.append(ring)
    return merged


def path_d(rings):
    parts = []
    for pts in merge(rings):
        s = f"M{pts[0][0]} {pts[0][1]}l"
        steps = []
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            steps.append(f"{x1 - x0} {y1 - y0}")
        s += " ".join(steps).replace(" -", "-") + "z"
        parts.append(s)
    return "".join(parts)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    topo_path, def_path = sys.argv[1], sys.argv[2]
    with open(topo_path, encoding="utf-8") as f:
        topo = json.load(f)
    d = read_definition(def_path)
    if d["view"] is None:
        sys.exit(f"{def_path}: no view")
    proj = Projection(d["view"], d["squeeze"], d["stretch_lat"])
    w, h = proj.width, proj.height
    tol_deg = d["tolerance"] / proj.k
    arcs = [douglas_peucker(a, tol_deg) for a in decode_arcs(topo)]

    def projected(name):
        rings = country_rings(topo, arcs, name)
        if rings is None:
            sys.exit(f"no country named {name!r} in {topo_path}")
        out = []
        for ring in rings:
            ring = unwrap(ring)
            lon0 = ring[0][0]
            base = proj.left + (lon0 - proj.left) % 360 - lon0
            for shift in (-360, 0, 360):
                pts = [proj.xy(lon + base + shift, lat) for lon, lat in ring]
                pts = clip_frame(pts, w, h)
                if len(pts) >= 3:
                    out.append(pts)
        # One copy per ring placement (the three shifts can coincide).
        unique = []
        for r in out:
            if r not in unique:
                unique.append(r)
        return unique

    # Which territories split which country, by their points.
    splits = {}
    named = set()
    for s in d["spaces"]:
        s["xy"] = [proj.point(lon, lat) for lon, lat in s["points"]]
        for country, split in s["countries"]:
            named.add(country)
            if split:
                splits.setdefault(country, []).extend(
                    (s["name"], p) for p in s["xy"])
    cache = {}

    def rings_of(country):
        if country not in cache:
            cache[country] = projected(country)
        return cache[country]

    result = []
    background = []
    for s in d["spaces"]:
        if s["kind"] != "land":
            continue
        rings = []
        for country, split in s["countries"]:
            if not split:
                rings.extend(rings_of(country))
                continue
            others = [p for _, p in splits[country]]
            for p in s["xy"]:
                for ring in rings_of(country):
                    part = clip_cell(ring, p, others)
                    if len(part) >= 3:
                        rings.append(part)
        big = [r for r in rings if area(r) >= d["min_area"]]
        if not big and rings:
            big = [max(rings, key=area)]
        if s["name"] == "-":
            background.extend(big)
        else:
            result.append((s, big))
    for g in topo["objects"]["countries"]["geometries"]:
        name = g.get("properties", {}).get("name")
        if name and name not in named and name != "Antarctica":
            background.extend(r for r in rings_of(name)
                              if area(r) >= d["min_area"])

    seas = [s for s in d["spaces"] if s["kind"] == "sea"]
    sea_points = [p for s in seas for p in s["xy"]]
    frame = [(0, 0), (w, 0), (w, h), (0, h)]
    water = []
    for s in seas:
        cells = [clip_cell(frame, p, sea_points) for p in s["xy"]]
        cells = [c for c in cells if len(c) >= 3]
        if s["name"] == "-":
            water.extend(cells)
        else:
            result.append((s, cells))

    spaces = []
    for s, rings in result:
        x, y = proj.point(*s["label"])
        spaces.append({
            "name": s["name"], "kind": s["kind"],
            "x": round(x), "y": round(y), "d": path_d(rings)})
    shapes = {
        "title": d["title"],
        "provenance": PROVENANCE,
        "width": w,
        "height": h,
        "background": path_d(background),
        "water": path_d(water),
        "spaces": spaces,
    }
    target = os.path.join(os.path.dirname(def_path), "shapes.json")
    with open(target, "w", encoding="utf-8") as f:
        json.dump(shapes, f, indent=0, ensure_ascii=False)
        f.write("\n")
    empty = [s["name"] for s in spaces if not s["d"]]
    print(f"{target}: {len(spaces)} spaces, {w}x{h}, "
          f"{os.path.getsize(target)} bytes"
          + (f"; no shape (drawn as a dot): {', '.join(empty)}" if empty else ""))


if __name__ == "__main__":
    main()
