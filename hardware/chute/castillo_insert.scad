// Castillo tower insert: hopper, sensing throat, sensor bay, two break-beams, LED ring seat, base
// and tray. Parametric: every dimension comes from params.scad (written from params.json by
// `make hardware`); override any of them on the command line, e.g.
//   openscad -D part=\"insert\" -D cube_edge=9 -o insert.stl castillo_insert.scad
//
// Axes: x across the tower (the hopper slopes down towards +x), y front (+) to back (-), z up.
// z = 0 is the underside of the insert, which stands tray_gap above the tray floor.
//
// Parts (select with -D part=...): "insert" (black PLA), "cone" (translucent PLA, diffuses the
// ring), "base" (black PLA, closes the insert from below and carries the electronics), "tray"
// (the castillo floor with the gate magnet post), "assembly" (everything, for viewing).

include <params.scad>

part = "assembly";
$fn = fn;
eps = 0.01;

// ---- Derived geometry ------------------------------------------------------------------------

ow = tower_inner_w - 2 * fit_clearance;       // insert outer width (x)
od = tower_inner_d - 2 * fit_clearance;       // insert outer depth (y)
ih = tower_inner_h - tray_gap;                // insert height
iw = ow - 2 * wall;                           // cavity width
idp = od - 2 * wall;                          // cavity depth

// The throat: narrower than two caballeros in x, so a beam line across its middle is always cut
// by a passing cube; wide enough for a Grande. Wide in y for a cube arriving edge-down.
throat_x = min(2 * cube_edge - 0.5, grande_edge + 3);
throat_y = grande_edge * sqrt(2) + 2;
xt1 = iw / 2 - sensor_bay - wall;             // throat's +x inner face (sensor side)
xt0 = xt1 - throat_x;                         // throat's -x inner face (hopper lip)
x_beam = (xt0 + xt1) / 2;                     // beam axis, along y

z_s = sensing_z;                              // beam axis and sensor window centre
z_b2 = z_s - beam2_below;                     // the second beam, below the first
// Both beams, [height, emitter side]: they alternate walls, so each receiver sits beside the other
// beam's emitter, which faces away from it. The one-beam budget tower prints the same insert and
// leaves the second pair of bores empty.
beams = [[z_s, -1], [z_b2, 1]];
z_lip = z_s + drop_h;                         // hopper lip: cubes leave the hopper here
ramp_run = xt0 + iw / 2;                      // length of the singulating slope, in x
z_ramp_top = z_lip + ramp_run * tan(hopper_angle);
back_run = iw / 2 - xt1;
z_back_top = z_lip + back_run * tan(hopper_back_angle);
hopper_top = max(z_ramp_top, z_back_top) + idp / 2 - throat_y / 2;

ring_seat_d = ring_od + 2 * 2.5;
cone_h = (ring_seat_d / 2) * tan(cone_angle);
cone_x = -iw / 2 + ring_seat_d / 2 + 2;
z_seat = ih - cone_h - ring_t - 3;            // top of the spider that carries the ring

bay_y = sensor_board[0] / 2 + 0.3;            // half-width of the sensor bay
bay_top = z_s + sensor_board[1] / 2 + 1.5;

echo("castillo_insert", ramp_run = ramp_run, z_lip = z_lip, z_ramp_top = z_ramp_top,
     throat_x = throat_x, throat_y = throat_y, hopper_top = hopper_top, z_seat = z_seat,
     z_beam2 = z_b2, beam_count = len(beams), beam_gap = beams[0][0] - beams[1][0]);

// ---- Feasibility: fail the render (and the test) rather than print a part that cannot work ----

assert(throat_x >= grande_edge + 1,
       "throat too narrow for the Grande: the beam cannot guarantee both sizes; raise cube_edge or lower grande_edge");
assert(throat_x <= 2 * cube_edge,
       "throat wider than two caballeros: a cube could fall past the beam line");
assert(ramp_run >= 3 * cube_edge, "tower too narrow: the singulating slope is shorter than 3 cubes");
assert(hopper_top + 3 < z_seat, "tower too low: the hopper reaches the LED ring spider");
assert(throat_y + 2 * wall + 2 * bore_boss < idp, "tower too shallow for the break-beam bosses");
assert(z_s - sensor_board[1] / 2 > base_t + 1, "sensing_z too low for the sensor board");
// the second beam alternates sides (its emitter beside the first receiver), so the bores of one
// wall are a 5 mm and a 3 mm hole beam2_below apart
assert(beam2_below >= (ir_led_d + phototransistor_d) / 2 + 1,
       "beam2_below too small: the two beams' bores would merge");
assert(beam2_below <= cube_edge - beam2_overlap_min,
       "beam2_below too long: a caballero's front must reach the second beam while it still cuts the first");
assert(z_b2 - (ir_led_d + 4) / 2 > base_t + 1, "sensing_z too low for the second beam");
assert(sensor_bay >= sensor_board[2] + 4, "sensor_bay too thin for the board and its parts");
assert(ring_seat_d + 4 < idp, "LED ring wider than the tower");
assert(-iw / 2 + carrier_board[0] < xt0 - wall, "carrier board collides with the throat");

// ---- Helpers ---------------------------------------------------------------------------------

// Height of the hopper surface: every point slopes towards the throat mouth.
function hopper_z(x, y) =
    z_lip
    + max(0, xt0 - x) * tan(hopper_angle)
    + max(0, x - xt1) * tan(hopper_back_angle)
    + max(0, abs(y) - throat_y / 2);

// The region above the hopper surface (convex: its surface is a sum of convex ramps), shifted by dz.
module above_hopper(dz) {
    xs = [-iw / 2 - 1, xt0, xt1, iw / 2 + 1];
    ys = [-idp / 2 - 1, -throat_y / 2, throat_y / 2, idp / 2 + 1];
    hull() {
        for (x = xs, y = ys) translate([x, y, hopper_z(x, y) + dz]) cube(eps, center = true);
        for (x = [xs[0], xs[3]], y = [ys[0], ys[3]]) translate([x, y, ih + 50]) cube(eps, center = true);
    }
}

module throat_void() {
    translate([xt0, -throat_y / 2, -1]) cube([throat_x, throat_y, ih + 2]);
}

// ---- The insert ------------------------------------------------------------------------------

module shell() {
    difference() {
        translate([-ow / 2, -od / 2, 0]) cube([ow, od, ih]);
        translate([-iw / 2, -idp / 2, -1]) cube([iw, idp, ih + 2]);
    }
}

module hopper() {
    intersection() {
        difference() {
            above_hopper(-hopper_thickness);
            above_hopper(0);
        }
        translate([-iw / 2 - eps, -idp / 2 - eps, 0]) cube([iw + 2 * eps, idp + 2 * eps, ih]);
    }
}

module throat_walls() {
    difference() {
        translate([xt0 - wall, -throat_y / 2 - wall, 0])
            cube([throat_x + 2 * wall, throat_y + 2 * wall, z_lip]);
        throat_void();
    }
}

module beam_bosses() {
    // Emitter (5 mm) on the back (-y) wall, receiver (3 mm) on the front (+y) wall, one axis;
    // the second beam beam2_below lower, the other way round (bosses merge into one block).
    for (side = [-1, 1], beam = beams)
        translate([x_beam, side * (throat_y / 2 + wall), beam[0]])
            rotate([side * -90, 0, 0])
                cylinder(d = max(ir_led_d, phototransistor_d) + 4, h = bore_boss);
}

module beam_bores() {
    for (beam = beams) {
        emitter_side = beam[1];
        // emitter: from outside its wall into the throat
        translate([x_beam, emitter_side * (throat_y / 2 + wall + bore_boss + 1), beam[0]])
            rotate([emitter_side * 90, 0, 0])
                cylinder(d = ir_led_d, h = bore_boss + wall + 1 + eps);
        // receiver: the opposite wall
        translate([x_beam, -emitter_side * (throat_y / 2 - eps), beam[0]])
            rotate([emitter_side * 90, 0, 0])
                cylinder(d = phototransistor_d, h = bore_boss + wall + 1);
    }
}

module sensor_bay_walls() {
    // A closed box against the throat's +x wall: the board slides in from below, the base plugs it.
    difference() {
        translate([xt1, -bay_y - wall, 0]) cube([iw / 2 - xt1, 2 * (bay_y + wall), bay_top + wall]);
        translate([xt1 + wall, -bay_y, -1]) cube([iw / 2 - xt1 - wall + eps, 2 * bay_y, bay_top + 1]);
        // the wire exit: a small notch at the bottom of the back wall, into the dark chamber
        translate([xt1 + wall + 1, -bay_y - wall - 1, -1]) cube([4, wall + 2, 4]);
    }
}

module sensor_window() {
    translate([xt1 - 1, -sensor_window[0] / 2, z_s - sensor_window[1] / 2])
        cube([wall + 2, sensor_window[0], sensor_window[1]]);
}

// Diamond-section bar, so no cube can come to rest on it; turn = rotation that makes the diamond.
module bar(from, to, size, turn) {
    hull() {
        translate(from) rotate(turn) cube(size, center = true);
        translate(to) rotate(turn) cube(size, center = true);
    }
}

module ring_spider() {
    difference() {
        union() {
            translate([cone_x, 0, z_seat - 3]) cylinder(d = ring_seat_d, h = 3);
            // 45 degree underside, so the seat prints without support
            translate([cone_x, 0, z_seat - 3 - (ring_seat_d - 6) / 2])
                cylinder(d1 = 6, d2 = ring_seat_d, h = (ring_seat_d - 6) / 2 + eps);
            bar([cone_x, -idp / 2, z_seat - 4], [cone_x, idp / 2, z_seat - 4], 6, [0, 45, 0]);
            bar([-iw / 2, 0, z_seat - 4], [cone_x, 0, z_seat - 4], 6, [45, 0, 0]);
            // wire conduit down the front wall to the dark chamber
            translate([cone_x - 4, idp / 2 - 8, hopper_z(cone_x, idp / 2) - hopper_thickness])
                cube([8, 8, z_seat - hopper_z(cone_x, idp / 2) + hopper_thickness - 4]);
        }
        // ring groove and the wire hole through the seat and along the front bar
        translate([cone_x, 0, z_seat - 1]) cylinder(d = ring_od + 0.6, h = 10);
        translate([cone_x - 2, 0, z_seat - 6]) cube([4, idp / 2 - 4, 4]);
        translate([cone_x, 0, z_seat - 8]) cylinder(d = 4, h = 8);
        translate([cone_x - 2.5, idp / 2 - 6.5, 0]) cube([5, 5, z_seat]);
    }
}

module insert() {
    difference() {
        // nothing may stick out of the insert's outer box (the bars' ends would)
        intersection() {
            translate([-ow / 2, -od / 2, 0]) cube([ow, od, ih]);
            union() {
                shell();
                hopper();
                throat_walls();
                beam_bosses();
                sensor_bay_walls();
                ring_spider();
            }
        }
        throat_void();
        beam_bores();
        sensor_window();
    }
}

// ---- The other parts -------------------------------------------------------------------------

module cone() {
    // Sits on the seat over the ring (a collar clears the ring); translucent, so the ring glows
    // through it; cubes that hit it slide off in all directions, which spreads a handful out.
    r = ring_seat_d / 2;
    difference() {
        union() {
            cylinder(r = r, h = ring_t);
            translate([0, 0, ring_t]) cylinder(r1 = r, r2 = 0, h = cone_h);
        }
        translate([0, 0, -eps]) cylinder(r = r - cone_wall, h = ring_t + 2 * eps);
        translate([0, 0, ring_t - eps]) cylinder(r1 = r - cone_wall, r2 = 0, h = cone_h - 2 * cone_wall);
    }
}

module base() {
    difference() {
        union() {
            translate([-ow / 2, -od / 2, -base_t]) cube([ow, od, base_t]);
            // press-fit rim inside the shell
            translate([0, 0, -eps]) difference() {
                translate([-iw / 2 + 0.2, -idp / 2 + 0.2, 0]) cube([iw - 0.4, idp - 0.4, 4]);
                translate([-iw / 2 + 2.2, -idp / 2 + 2.2, -1]) cube([iw - 4.4, idp - 4.4, 6]);
                // room for the sensor bay walls, which reach down to the base
                translate([xt1 - 0.3, -bay_y - wall - 0.3, -1]) cube([iw, 2 * (bay_y + wall + 0.3), 6]);
            }
            // plug that closes the sensor bay and holds the board at the sensing height
            translate([xt1 + wall + 0.2, -bay_y + 0.2, -eps])
                cube([iw / 2 - xt1 - wall - 0.4, 2 * bay_y - 0.4, z_s - sensor_board[1] / 2]);
            // slot for the carrier board along the back wall
            translate([-iw / 2 + 2.2, -idp / 2 + 3, -eps]) difference() {
                cube([carrier_board[0] + 2, carrier_board[2] + 4, 5]);
                translate([1, 2, 1]) cube([carrier_board[0], carrier_board[2] + 0.3, 5]);
            }
            // pocket walls for the gate reed switch in the front-left corner
            translate([-iw / 2 + 2.2, idp / 2 - 2.2 - reed_body[1] - 2, -eps]) difference() {
                cube([reed_body[0] + 2, reed_body[1] + 2, 4]);
                translate([1, 1, 1]) cube([reed_body[0] + 0.4, reed_body[1] + 0.4, 4]);
            }
        }
        // the throat exit, the USB / LED cable hole
        translate([xt0, -throat_y / 2, -base_t - 1]) cube([throat_x, throat_y, base_t + 2]);
        translate([-iw / 2 + 8, -idp / 2 + 9, -base_t - 1]) cube([14, 7, base_t + 2]);
    }
}

module tray() {
    lip = 3;
    tw = tower_outer_w + 2 * 0.5;
    td = tower_outer_d + 2 * 0.5;
    post = [-iw / 2 + 3.2, idp / 2 - 3.2 - reed_body[1]];
    difference() {
        translate([-tw / 2 - lip, -td / 2 - lip, -tray_gap - 6]) cube([tw + 2 * lip, td + 2 * lip, 6 + 4]);
        // the tower stands in this recess
        translate([-tw / 2, -td / 2, -tray_gap]) cube([tw, td, 10]);
        // cable groove under the tower's back wall
        translate([-iw / 2 + 8, -td / 2 - lip - 1, -tray_gap - cable_groove[1]])
            cube([cable_groove[0], lip + (td - idp) / 2 + 12, cable_groove[1] + 1]);
    }
    // magnet post under the reed pocket, with the magnet pocket open at the top
    difference() {
        translate([post[0], post[1], -tray_gap - 1])
            cube([magnet_body[0] + 2, magnet_body[1] + 2, tray_gap + 1 - base_t - reed_gap]);
        translate([post[0] + 1, post[1] + 1, -base_t - reed_gap - magnet_body[2]])
            cube([magnet_body[0] + 0.4, magnet_body[1] + 0.4, magnet_body[2] + 1]);
    }
}

// ---- Part selection --------------------------------------------------------------------------

if (part == "insert") insert();
else if (part == "cone") cone();
else if (part == "base") base();
else if (part == "tray") tray();
else {
    insert();
    translate([cone_x, 0, z_seat - 1]) color("white", 0.6) cone();
    color("dimgray") base();
    color("tan") tray();
}
