// Generated from french.sbl by Snowball 3.1.1 - https://snowballstem.org/

#![allow(non_snake_case)]
#![allow(non_upper_case_globals)]
#![allow(unused_mut)]
#![allow(unused_parens)]
#![allow(unused_variables)]
use super::env::SnowballEnv;
use super::env::Among;

#[derive(Clone)]
struct Context {
}

static A_0: &'static [Among<Context>; 4] = &[
    Among("col", -1, -1, None),
    Among("ni", -1, 1, None),
    Among("par", -1, -1, None),
    Among("tap", -1, -1, None),
];

static A_1: &'static [Among<Context>; 7] = &[
    Among("", -1, 7, None),
    Among("H", 0, 6, None),
    Among("He", 1, 4, None),
    Among("Hi", 1, 5, None),
    Among("I", 0, 1, None),
    Among("U", 0, 2, None),
    Among("Y", 0, 3, None),
];

static A_2: &'static [Among<Context>; 6] = &[
    Among("iqU", -1, 3, None),
    Among("abl", -1, 3, None),
    Among("Ièr", -1, 4, None),
    Among("ièr", -1, 4, None),
    Among("eus", -1, 2, None),
    Among("iv", -1, 1, None),
];

static A_3: &'static [Among<Context>; 3] = &[
    Among("ic", -1, 2, None),
    Among("abil", -1, 1, None),
    Among("iv", -1, 3, None),
];

static A_4: &'static [Among<Context>; 44] = &[
    Among("iqUe", -1, 1, None),
    Among("atrice", -1, 2, None),
    Among("ance", -1, 1, None),
    Among("ence", -1, 5, None),
    Among("logie", -1, 3, None),
    Among("able", -1, 1, None),
    Among("isme", -1, 1, None),
    Among("euse", -1, 12, None),
    Among("iste", -1, 1, None),
    Among("ive", -1, 8, None),
    Among("if", -1, 8, None),
    Among("usion", -1, 4, None),
    Among("ation", -1, 2, None),
    Among("ution", -1, 4, None),
    Among("ateur", -1, 2, None),
    Among("iqUes", -1, 1, None),
    Among("atrices", -1, 2, None),
    Among("ances", -1, 1, None),
    Among("ences", -1, 5, None),
    Among("logies", -1, 3, None),
    Among("ables", -1, 1, None),
    Among("ismes", -1, 1, None),
    Among("euses", -1, 12, None),
    Among("istes", -1, 1, None),
    Among("ives", -1, 8, None),
    Among("ifs", -1, 8, None),
    Among("usions", -1, 4, None),
    Among("ations", -1, 2, None),
    Among("utions", -1, 4, None),
    Among("ateurs", -1, 2, None),
    Among("ments", -1, 16, None),
    Among("ements", 30, 6, None),
    Among("issements", 31, 13, None),
    Among("ités", -1, 7, None),
    Among("ment", -1, 16, None),
    Among("ement", 34, 6, None),
    Among("issement", 35, 13, None),
    Among("amment", 34, 14, None),
    Among("emment", 34, 15, None),
    Among("aux", -1, 10, None),
    Among("eaux", 39, 9, None),
    Among("eux", -1, 1, None),
    Among("oux", -1, 11, None),
    Among("ité", -1, 7, None),
];

static A_5: &'static [Among<Context>; 35] = &[
    Among("ira", -1, 1, None),
    Among("ie", -1, 1, None),
    Among("isse", -1, 1, None),
    Among("issante", -1, 1, None),
    Among("i", -1, 1, None),
    Among("irai", 4, 1, None),
    Among("ir", -1, 1, None),
    Among("iras", -1, 1, None),
    Among("ies", -1, 1, None),
    Among("îmes", -1, 1, None),
    Among("isses", -1, 1, None),
    Among("issantes", -1, 1, None),
    Among("îtes", -1, 1, None),
    Among("is", -1, 1, None),
    Among("irais", 13, 1, None),
    Among("issais", 13, 1, None),
    Among("irions", -1, 1, None),
    Among("issions", -1, 1, None),
    Among("irons", -1, 1, None),
    Among("issons", -1, 1, None),
    Among("issants", -1, 1, None),
    Among("it", -1, 1, None),
    Among("irait", 21, 1, None),
    Among("issait", 21, 1, None),
    Among("issant", -1, 1, None),
    Among("iraIent", -1, 1, None),
    Among("issaIent", -1, 1, None),
    Among("irent", -1, 1, None),
    Among("issent", -1, 1, None),
    Among("iront", -1, 1, None),
    Among("ît", -1, 1, None),
    Among("iriez", -1, 1, None),
    Among("issiez", -1, 1, None),
    Among("irez", -1, 1, None),
    Among("issez", -1, 1, None),
];

static A_6: &'static [Among<Context>; 3] = &[
    Among("al", -1, 1, None),
    Among("épl", -1, -1, None),
    Among("auv", -1, -1, None),
];

static A_7: &'static [Among<Context>; 41] = &[
    Among("a", -1, 3, None),
    Among("era", 0, 2, None),
    Among("aise", -1, 4, None),
    Among("asse", -1, 3, None),
    Among("ante", -1, 3, None),
    Among("ée", -1, 2, None),
    Among("ai", -1, 3, None),
    Among("erai", 6, 2, None),
    Among("er", -1, 2, None),
    Among("as", -1, 3, None),
    Among("eras", 9, 2, None),
    Among("âmes", -1, 3, None),
    Among("aises", -1, 4, None),
    Among("asses", -1, 3, None),
    Among("antes", -1, 3, None),
    Among("âtes", -1, 3, None),
    Among("ées", -1, 2, None),
    Among("ais", -1, 4, None),
    Among("eais", 17, 2, None),
    Among("erais", 17, 2, None),
    Among("ions", -1, 1, None),
    Among("erions", 20, 2, None),
    Among("assions", 20, 3, None),
    Among("erons", -1, 2, None),
    Among("ants", -1, 3, None),
    Among("és", -1, 2, None),
    Among("ait", -1, 3, None),
    Among("erait", 26, 2, None),
    Among("ant", -1, 3, None),
    Among("aIent", -1, 3, None),
    Among("eraIent", 29, 2, None),
    Among("èrent", -1, 2, None),
    Among("assent", -1, 3, None),
    Among("eront", -1, 2, None),
    Among("ât", -1, 3, None),
    Among("ez", -1, 2, None),
    Among("iez", 35, 2, None),
    Among("eriez", 36, 2, None),
    Among("assiez", 36, 3, None),
    Among("erez", 35, 2, None),
    Among("é", -1, 2, None),
];

static A_8: &'static [Among<Context>; 6] = &[
    Among("e", -1, 3, None),
    Among("Ière", 0, 2, None),
    Among("ière", 0, 2, None),
    Among("ion", -1, 1, None),
    Among("Ier", -1, 2, None),
    Among("ier", -1, 2, None),
];

static A_9: &'static [Among<Context>; 5] = &[
    Among("ell", -1, -1, None),
    Among("eill", -1, -1, None),
    Among("enn", -1, -1, None),
    Among("onn", -1, -1, None),
    Among("ett", -1, -1, None),
];

static G_v: &'static [u8; 20] = &[17, 65, 16, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 130, 103, 8, 5];

static G_oux_ending: &'static [u8; 2] = &[65, 85];

static G_elision_char: &'static [u8; 3] = &[131, 14, 131];

static G_keep_with_s: &'static [u8; 17] = &[1, 65, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128];

pub fn stem(env: &mut SnowballEnv) -> bool {
    let mut context = &mut Context {
    };
    let mut among_var;
    let mut i_p2 : i32;
    let mut i_p1 : i32;
    let mut i_pV : i32;
    let v_1 = env.cursor;
    'lab0: loop {
        env.bra = env.cursor;
        'lab1: loop {
            'lab2: loop {
                if !env.in_grouping(G_elision_char, 99, 122) {
                    break 'lab2;
                }
                break 'lab1;
            }
            if !env.eq_s(&"qu") {
                break 'lab0;
            }
            break 'lab1;
        }
        if !env.eq_s(&"'") {
            break 'lab0;
        }
        env.ket = env.cursor;
        if env.cursor >= env.limit {
            break 'lab0;
        }
        env.slice_del();
        break 'lab0;
    }
    env.cursor = v_1;
    let v_2 = env.cursor;
    'lab3: loop {
        'replab4: loop{
            let v_3 = env.cursor;
            'lab5: for _ in 0..1 {
                'golab6: loop {
                    let v_4 = env.cursor;
                    'lab7: loop {
                        'lab8: loop {
                            let v_5 = env.cursor;
                            'lab9: loop {
                                if !env.in_grouping(G_v, 97, 251) {
                                    break 'lab9;
                                }
                                env.bra = env.cursor;
                                'lab10: loop {
                                    let v_6 = env.cursor;
                                    'lab11: loop {
                                        if !env.eq_s(&"u") {
                                            break 'lab11;
                                        }
                                        env.ket = env.cursor;
                                        if !env.in_grouping(G_v, 97, 251) {
                                            break 'lab11;
                                        }
                                        env.slice_from("U");
                                        break 'lab10;
                                    }
                                    env.cursor = v_6;
                                    'lab12: loop {
                                        if !env.eq_s(&"i") {
                                            break 'lab12;
                                        }
                                        env.ket = env.cursor;
                                        if !env.in_grouping(G_v, 97, 251) {
                                            break 'lab12;
                                        }
                                        env.slice_from("I");
                                        break 'lab10;
                                    }
                                    env.cursor = v_6;
                                    if !env.eq_s(&"y") {
                                        break 'lab9;
                                    }
                                    env.ket = env.cursor;
                                    env.slice_from("Y");
                                    break 'lab10;
                                }
                                break 'lab8;
                            }
                            env.cursor = v_5;
                            'lab13: loop {
                                env.bra = env.cursor;
                                if !env.eq_s(&"ë") {
                                    break 'lab13;
                                }
                                env.ket = env.cursor;
                                env.slice_from("He");
                                break 'lab8;
                            }
                            env.cursor = v_5;
                            'lab14: loop {
                                env.bra = env.cursor;
                                if !env.eq_s(&"ï") {
                                    break 'lab14;
                                }
                                env.ket = env.cursor;
                                env.slice_from("Hi");
                                break 'lab8;
                            }
                            env.cursor = v_5;
                            'lab15: loop {
                                env.bra = env.cursor;
                                if !env.eq_s(&"y") {
                                    break 'lab15;
                                }
                                env.ket = env.cursor;
                                if !env.in_grouping(G_v, 97, 251) {
                                    break 'lab15;
                                }
                                env.slice_from("Y");
                                break 'lab8;
                            }
                            env.cursor = v_5;
                            if !env.eq_s(&"q") {
                                break 'lab7;
                            }
                            env.bra = env.cursor;
                            if !env.eq_s(&"u") {
                                break 'lab7;
                            }
                            env.ket = env.cursor;
                            env.slice_from("U");
                            break 'lab8;
                        }
                        env.cursor = v_4;
                        break 'golab6;
                    }
                    env.cursor = v_4;
                    if env.cursor >= env.limit {
                        break 'lab5;
                    }
                    env.next_char();
                }
                continue 'replab4;
            }
            env.cursor = v_3;
            break 'replab4;
        }
        break 'lab3;
    }
    env.cursor = v_2;
    'lab16: loop {
        i_pV = env.limit;
        i_p1 = env.limit;
        i_p2 = env.limit;
        let v_7 = env.cursor;
        'lab17: loop {
            'lab18: loop {
                let v_8 = env.cursor;
                'lab19: loop {
                    if !env.in_grouping(G_v, 97, 251) {
                        break 'lab19;
                    }
                    if !env.in_grouping(G_v, 97, 251) {
                        break 'lab19;
                    }
                    if env.cursor >= env.limit {
                        break 'lab19;
                    }
                    env.next_char();
                    break 'lab18;
                }
                env.cursor = v_8;
                'lab20: loop {
                    if (env.cursor + 1 >= env.limit || env.current.as_bytes()[(env.cursor + 1) as usize] as u8 >> 5 != 3 as u8 || ((33282 as i32 >> (env.current.as_bytes()[(env.cursor + 1) as usize] as u8 & 0x1f)) & 1) == 0) {
                        break 'lab20;
                    }

                    among_var = env.find_among(A_0, context);
                    if among_var == 0 {
                        break 'lab20;
                    }
                    match among_var {
                        1 => {
                            if !env.in_grouping(G_v, 97, 251) {
                                break 'lab20;
                            }
                        }
                        _ => ()
                    }
                    break 'lab18;
                }
                env.cursor = v_8;
                if env.cursor >= env.limit {
                    break 'lab17;
                }
                env.next_char();
                if !env.go_out_grouping(G_v, 97, 251) {
                    break 'lab17;
                }
                env.next_char();
                break 'lab18;
            }
            i_pV = env.cursor;
            break 'lab17;
        }
        env.cursor = v_7;
        let v_9 = env.cursor;
        'lab21: loop {
            if !env.go_out_grouping(G_v, 97, 251) {
                break 'lab21;
            }
            env.next_char();
            if !env.go_in_grouping(G_v, 97, 251) {
                break 'lab21;
            }
            env.next_char();
            i_p1 = env.cursor;
            if !env.go_out_grouping(G_v, 97, 251) {
                break 'lab21;
            }
            env.next_char();
            if !env.go_in_grouping(G_v, 97, 251) {
                break 'lab21;
            }
            env.next_char();
            i_p2 = env.cursor;
            break 'lab21;
        }
        env.cursor = v_9;
        break 'lab16;
    }
    env.limit_backward = env.cursor;
    env.cursor = env.limit;
    let v_10 = env.limit - env.cursor;
    'lab22: loop {
        'lab23: loop {
            let v_11 = env.limit - env.cursor;
            'lab24: loop {
                let v_12 = env.limit - env.cursor;
                'lab25: loop {
                    let v_13 = env.limit - env.cursor;
                    'lab26: loop {
                        env.ket = env.cursor;
                        among_var = env.find_among_b(A_4, context);
                        if among_var == 0 {
                            break 'lab26;
                        }
                        env.bra = env.cursor;
                        match among_var {
                            1 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_del();
                            }
                            2 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_del();
                                let v_14 = env.limit - env.cursor;
                                'lab27: loop {
                                    env.ket = env.cursor;
                                    if !env.eq_s_b(&"ic") {
                                        env.cursor = env.limit - v_14;
                                        break 'lab27;
                                    }
                                    env.bra = env.cursor;
                                    'lab28: loop {
                                        let v_15 = env.limit - env.cursor;
                                        'lab29: loop {
                                            if i_p2 > env.cursor {
                                                break 'lab29;
                                            }
                                            env.slice_del();
                                            break 'lab28;
                                        }
                                        env.cursor = env.limit - v_15;
                                        env.slice_from("iqU");
                                        break 'lab28;
                                    }
                                    break 'lab27;
                                }
                            }
                            3 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("log");
                            }
                            4 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("u");
                            }
                            5 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("ent");
                            }
                            6 => {
                                if i_pV > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_del();
                                let v_16 = env.limit - env.cursor;
                                'lab30: loop {
                                    env.ket = env.cursor;
                                    among_var = env.find_among_b(A_2, context);
                                    if among_var == 0 {
                                        env.cursor = env.limit - v_16;
                                        break 'lab30;
                                    }
                                    env.bra = env.cursor;
                                    match among_var {
                                        1 => {
                                            if i_p2 > env.cursor {
                                                env.cursor = env.limit - v_16;
                                                break 'lab30;
                                            }
                                            env.slice_del();
                                            env.ket = env.cursor;
                                            if !env.eq_s_b(&"at") {
                                                env.cursor = env.limit - v_16;
                                                break 'lab30;
                                            }
                                            env.bra = env.cursor;
                                            if i_p2 > env.cursor {
                                                env.cursor = env.limit - v_16;
                                                break 'lab30;
                                            }
                                            env.slice_del();
                                        }
                                        2 => {
                                            'lab31: loop {
                                                let v_17 = env.limit - env.cursor;
                                                'lab32: loop {
                                                    if i_p2 > env.cursor {
                                                        break 'lab32;
                                                    }
                                                    env.slice_del();
                                                    break 'lab31;
                                                }
                                                env.cursor = env.limit - v_17;
                                                if i_p1 > env.cursor {
                                                    env.cursor = env.limit - v_16;
                                                    break 'lab30;
                                                }
                                                env.slice_from("eux");
                                                break 'lab31;
                                            }
                                        }
                                        3 => {
                                            if i_p2 > env.cursor {
                                                env.cursor = env.limit - v_16;
                                                break 'lab30;
                                            }
                                            env.slice_del();
                                        }
                                        4 => {
                                            if i_pV > env.cursor {
                                                env.cursor = env.limit - v_16;
                                                break 'lab30;
                                            }
                                            env.slice_from("i");
                                        }
                                        _ => ()
                                    }
                                    break 'lab30;
                                }
                            }
                            7 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_del();
                                let v_18 = env.limit - env.cursor;
                                'lab33: loop {
                                    env.ket = env.cursor;
                                    if (env.cursor - 1 <= env.limit_backward || env.current.as_bytes()[(env.cursor - 1) as usize] as u8 >> 5 != 3 as u8 || ((4198408 as i32 >> (env.current.as_bytes()[(env.cursor - 1) as usize] as u8 & 0x1f)) & 1) == 0) {
                                        env.cursor = env.limit - v_18;
                                        break 'lab33;
                                    }

                                    among_var = env.find_among_b(A_3, context);
                                    if among_var == 0 {
                                        env.cursor = env.limit - v_18;
                                        break 'lab33;
                                    }
                                    env.bra = env.cursor;
                                    match among_var {
                                        1 => {
                                            'lab34: loop {
                                                let v_19 = env.limit - env.cursor;
                                                'lab35: loop {
                                                    if i_p2 > env.cursor {
                                                        break 'lab35;
                                                    }
                                                    env.slice_del();
                                                    break 'lab34;
                                                }
                                                env.cursor = env.limit - v_19;
                                                env.slice_from("abl");
                                                break 'lab34;
                                            }
                                        }
                                        2 => {
                                            'lab36: loop {
                                                let v_20 = env.limit - env.cursor;
                                                'lab37: loop {
                                                    if i_p2 > env.cursor {
                                                        break 'lab37;
                                                    }
                                                    env.slice_del();
                                                    break 'lab36;
                                                }
                                                env.cursor = env.limit - v_20;
                                                env.slice_from("iqU");
                                                break 'lab36;
                                            }
                                        }
                                        3 => {
                                            if i_p2 > env.cursor {
                                                env.cursor = env.limit - v_18;
                                                break 'lab33;
                                            }
                                            env.slice_del();
                                        }
                                        _ => ()
                                    }
                                    break 'lab33;
                                }
                            }
                            8 => {
                                if i_p2 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_del();
                                let v_21 = env.limit - env.cursor;
                                'lab38: loop {
                                    env.ket = env.cursor;
                                    if !env.eq_s_b(&"at") {
                                        env.cursor = env.limit - v_21;
                                        break 'lab38;
                                    }
                                    env.bra = env.cursor;
                                    if i_p2 > env.cursor {
                                        env.cursor = env.limit - v_21;
                                        break 'lab38;
                                    }
                                    env.slice_del();
                                    env.ket = env.cursor;
                                    if !env.eq_s_b(&"ic") {
                                        env.cursor = env.limit - v_21;
                                        break 'lab38;
                                    }
                                    env.bra = env.cursor;
                                    'lab39: loop {
                                        let v_22 = env.limit - env.cursor;
                                        'lab40: loop {
                                            if i_p2 > env.cursor {
                                                break 'lab40;
                                            }
                                            env.slice_del();
                                            break 'lab39;
                                        }
                                        env.cursor = env.limit - v_22;
                                        env.slice_from("iqU");
                                        break 'lab39;
                                    }
                                    break 'lab38;
                                }
                            }
                            9 => {
                                env.slice_from("eau");
                            }
                            10 => {
                                if i_p1 > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("al");
                            }
                            11 => {
                                if !env.in_grouping_b(G_oux_ending, 98, 112) {
                                    break 'lab26;
                                }
                                env.slice_from("ou");
                            }
                            12 => {
                                'lab41: loop {
                                    let v_23 = env.limit - env.cursor;
                                    'lab42: loop {
                                        if i_p2 > env.cursor {
                                            break 'lab42;
                                        }
                                        env.slice_del();
                                        break 'lab41;
                                    }
                                    env.cursor = env.limit - v_23;
                                    if i_p1 > env.cursor {
                                        break 'lab26;
                                    }
                                    env.slice_from("eux");
                                    break 'lab41;
                                }
                            }
                            13 => {
                                if i_p1 > env.cursor {
                                    break 'lab26;
                                }
                                if !env.out_grouping_b(G_v, 97, 251) {
                                    break 'lab26;
                                }
                                env.slice_del();
                            }
                            14 => {
                                if i_pV > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("ant");
                                break 'lab26;
                            }
                            15 => {
                                if i_pV > env.cursor {
                                    break 'lab26;
                                }
                                env.slice_from("ent");
                                break 'lab26;
                            }
                            16 => {
                                let v_24 = env.limit - env.cursor;
                                if !env.in_grouping_b(G_v, 97, 251) {
                                    break 'lab26;
                                }
                                if i_pV > env.cursor {
                                    break 'lab26;
                                }
                                env.cursor = env.limit - v_24;
                                env.slice_del();
                                break 'lab26;
                            }
                            _ => ()
                        }
                        break 'lab25;
                    }
                    env.cursor = env.limit - v_13;
                    'lab43: loop {
                        if env.cursor < i_pV {
                            break 'lab43;
                        }
                        let v_25 = env.limit_backward;
                        env.limit_backward = i_pV;
                        env.ket = env.cursor;
                        if (env.cursor <= env.limit_backward || env.current.as_bytes()[(env.cursor - 1) as usize] as u8 >> 5 != 3 as u8 || ((68944418 as i32 >> (env.current.as_bytes()[(env.cursor - 1) as usize] as u8 & 0x1f)) & 1) == 0) {
                            env.limit_backward = v_25;
                            break 'lab43;
                        }

                        if env.find_among_b(A_5, context) == 0 {
                            env.limit_backward = v_25;
                            break 'lab43;
                        }
                        env.bra = env.cursor;
                        'lab44: loop {
                            if !env.eq_s_b(&"H") {
                                break 'lab44;
                            }
                            env.limit_backward = v_25;
                            break 'lab43;
                        }
                        if !env.out_grouping_b(G_v, 97, 251) {
                            env.limit_backward = v_25;
                            break 'lab43;
                        }
                        env.slice_del();
                        env.limit_backward = v_25;
                        break 'lab25;
                    }
                    env.cursor = env.limit - v_13;
                    if env.cursor < i_pV {
                        break 'lab24;
                    }
                    let v_26 = env.limit_backward;
                    env.limit_backward = i_pV;
                    env.ket = env.cursor;
                    among_var = env.find_among_b(A_7, context);
                    if among_var == 0 {
                        env.limit_backward = v_26;
                        break 'lab24;
                    }
                    env.bra = env.cursor;
                    env.limit_backward = v_26;
                    match among_var {
                        1 => {
                            if i_p2 > env.cursor {
                                break 'lab24;
                            }
                            env.slice_del();
                        }
                        2 => {
                            env.slice_del();
                        }
                        3 => {
                            let v_27 = env.limit - env.cursor;
                            'lab45: loop {
                                if !env.eq_s_b(&"e") {
                                    env.cursor = env.limit - v_27;
                                    break 'lab45;
                                }
                                if i_pV > env.cursor {
                                    env.cursor = env.limit - v_27;
                                    break 'lab45;
                                }
                                env.bra = env.cursor;
                                break 'lab45;
                            }
                            env.slice_del();
                        }
                        4 => {
                            let v_28 = env.limit - env.cursor;
                            'lab46: loop {
                                if (env.cursor - 1 <= env.limit_backward || (env.current.as_bytes()[(env.cursor - 1) as usize] as u8 != 108 as u8 && env.current.as_bytes()[(env.cursor - 1) as usize] as u8 != 118 as u8)) {
                                    break 'lab46;
                                }

                                among_var = env.find_among_b(A_6, context);
                                if among_var == 0 {
                                    break 'lab46;
                                }
                                match among_var {
                                    1 => {
                                        if env.cursor <= env.limit_backward {
                                            break 'lab46;
                                        }
                                        env.previous_char();
                                        if env.cursor > env.limit_backward {
                                            break 'lab46;
                                        }
                                    }
                                    _ => ()
                                }
                                break 'lab24;
                            }
                            env.cursor = env.limit - v_28;
                            env.slice_del();
                        }
                        _ => ()
                    }
                    break 'lab25;
                }
                env.cursor = env.limit - v_12;
                let v_29 = env.limit - env.cursor;
                'lab47: loop {
                    env.ket = env.cursor;
                    'lab48: loop {
                        let v_30 = env.limit - env.cursor;
                        'lab49: loop {
                            if !env.eq_s_b(&"Y") {
                                break 'lab49;
                            }
                            env.bra = env.cursor;
                            env.slice_from("i");
                            break 'lab48;
                        }
                        env.cursor = env.limit - v_30;
                        if !env.eq_s_b(&"ç") {
                            env.cursor = env.limit - v_29;
                            break 'lab47;
                        }
                        env.bra = env.cursor;
                        env.slice_from("c");
                        break 'lab48;
                    }
                    break 'lab47;
                }
                break 'lab23;
            }
            env.cursor = env.limit - v_11;
            let v_31 = env.limit - env.cursor;
            'lab50: loop {
                env.ket = env.cursor;
                if !env.eq_s_b(&"s") {
                    env.cursor = env.limit - v_31;
                    break 'lab50;
                }
                env.bra = env.cursor;
                let v_32 = env.limit - env.cursor;
                'lab51: loop {
                    'lab52: loop {
                        if !env.eq_s_b(&"Hi") {
                            break 'lab52;
                        }
                        break 'lab51;
                    }
                    if !env.out_grouping_b(G_keep_with_s, 97, 232) {
                        env.cursor = env.limit - v_31;
                        break 'lab50;
                    }
                    break 'lab51;
                }
                env.cursor = env.limit - v_32;
                env.slice_del();
                break 'lab50;
            }
            if env.cursor < i_pV {
                break 'lab22;
            }
            let v_33 = env.limit_backward;
            env.limit_backward = i_pV;
            env.ket = env.cursor;
            if (env.cursor <= env.limit_backward || env.current.as_bytes()[(env.cursor - 1) as usize] as u8 >> 5 != 3 as u8 || ((278560 as i32 >> (env.current.as_bytes()[(env.cursor - 1) as usize] as u8 & 0x1f)) & 1) == 0) {
                env.limit_backward = v_33;
                break 'lab22;
            }

            among_var = env.find_among_b(A_8, context);
            if among_var == 0 {
                env.limit_backward = v_33;
                break 'lab22;
            }
            env.bra = env.cursor;
            match among_var {
                1 => {
                    if i_p2 > env.cursor {
                        env.limit_backward = v_33;
                        break 'lab22;
                    }
                    'lab53: loop {
                        'lab54: loop {
                            if !env.eq_s_b(&"s") {
                                break 'lab54;
                            }
                            break 'lab53;
                        }
                        if !env.eq_s_b(&"t") {
                            env.limit_backward = v_33;
                            break 'lab22;
                        }
                        break 'lab53;
                    }
                    env.slice_del();
                }
                2 => {
                    env.slice_from("i");
                }
                3 => {
                    env.slice_del();
                }
                _ => ()
            }
            env.limit_backward = v_33;
            break 'lab23;
        }
        break 'lab22;
    }
    env.cursor = env.limit - v_10;
    let v_34 = env.limit - env.cursor;
    'lab55: loop {
        let v_35 = env.limit - env.cursor;
        if (env.cursor - 2 <= env.limit_backward || env.current.as_bytes()[(env.cursor - 1) as usize] as u8 >> 5 != 3 as u8 || ((1069056 as i32 >> (env.current.as_bytes()[(env.cursor - 1) as usize] as u8 & 0x1f)) & 1) == 0) {
            break 'lab55;
        }

        if env.find_among_b(A_9, context) == 0 {
            break 'lab55;
        }
        env.cursor = env.limit - v_35;
        env.ket = env.cursor;
        if env.cursor <= env.limit_backward {
            break 'lab55;
        }
        env.previous_char();
        env.bra = env.cursor;
        env.slice_del();
        break 'lab55;
    }
    env.cursor = env.limit - v_34;
    let v_36 = env.limit - env.cursor;
    'lab56: loop {
        let mut v_37 = 1;
        'replab57: loop{
            'lab58: for _ in 0..1 {
                if !env.out_grouping_b(G_v, 97, 251) {
                    break 'lab58;
                }
                v_37 -= 1;
                continue 'replab57;
            }
            break 'replab57;
        }
        if v_37 > 0 {
            break 'lab56;
        }
        env.ket = env.cursor;
        'lab59: loop {
            'lab60: loop {
                if !env.eq_s_b(&"é") {
                    break 'lab60;
                }
                break 'lab59;
            }
            if !env.eq_s_b(&"è") {
                break 'lab56;
            }
            break 'lab59;
        }
        env.bra = env.cursor;
        env.slice_from("e");
        break 'lab56;
    }
    env.cursor = env.limit - v_36;
    env.cursor = env.limit_backward;
    let v_38 = env.cursor;
    'lab61: loop {
        'replab62: loop{
            let v_39 = env.cursor;
            'lab63: for _ in 0..1 {
                env.bra = env.cursor;
                if (env.cursor >= env.limit || env.current.as_bytes()[(env.cursor + 0) as usize] as u8 >> 5 != 2 as u8 || ((35652352 as i32 >> (env.current.as_bytes()[(env.cursor + 0) as usize] as u8 & 0x1f)) & 1) == 0) {among_var = 7;}
                else {
                    among_var = env.find_among(A_1, context);
                }
                env.ket = env.cursor;
                match among_var {
                    1 => {
                        env.slice_from("i");
                    }
                    2 => {
                        env.slice_from("u");
                    }
                    3 => {
                        env.slice_from("y");
                    }
                    4 => {
                        env.slice_from("ë");
                    }
                    5 => {
                        env.slice_from("ï");
                    }
                    6 => {
                        env.slice_del();
                    }
                    7 => {
                        if env.cursor >= env.limit {
                            break 'lab63;
                        }
                        env.next_char();
                    }
                    _ => ()
                }
                continue 'replab62;
            }
            env.cursor = v_39;
            break 'replab62;
        }
        break 'lab61;
    }
    env.cursor = v_38;
    return true
}
