//! The English stemmer against Snowball's official vocabulary and its special cases.

use super::{stem, stem_into};
use alloc::string::String;

/// Pairs from the official Snowball data (`snowball-data/english/voc.txt` and
/// `output.txt`): one word per kind of suffix rewrite, the special cases, and every
/// word whose stem changed between Snowball 2 and 3 (which pins the version).
const OFFICIAL: &str = "
added=add adding=add agreed=agre andes=andes apologists=apolog appellants=appel archaeologists=archaeolog
arsenal=arsenal atlas=atlas bed=bed bias=bias bled=bled calculate=calcul calculating=calcul
canning=canning caresses=caress cats=cat commune=commune communicate=communic communication=communic
communism=communism conditional=condit considerings=consid consign=consign consigned=consign
consigning=consign consignment=consign consist=consist consisted=consist consistency=consist
consistent=consist conventionalities=convent conventionality=convent copulatives=copul
cosmos=cosmos cries=cri cry=cri crying=cri crystallization=crystal cunningly=cun
demoralized=demor dependencies=depend desolateness=desol died=die dies=die disagreement=disagr
discontentedly=discont disenchanted=disench disfigurements=disfigur divorcement=divorc
doggedly=dog downfallings=downfal dying=die early=earli earring=earring ebbed=ebb
ebbing=ebb eccentricities=eccentr educational=educ elasticity=elast elegances=eleg
emergencies=emergenc emergency=emergenc endowment=endow endowments=endow engineering=engin
entomologist=entomolog erred=err erring=err evening=evening evenings=evening evidences=evid
exceed=exceed exceeding=exceed excellence=excel excellences=excel excellencies=excel
excellency=excel excellently=excel expedients=expedi experimented=experi extirpating=extirp
exudations=exud feed=feed flagellation=flagel flagellator=flagel fomentation=foment
foreseeing=forese gallivanting=galliv galvanism=galvan genealogist=genealog general=general
generalization=general generally=general generate=generat generation=generat generations=generat
generously=generous gently=gentl geologist=geolog geologists=geolog gettings=get
goodnaturedly=goodnatur gormandizing=gormand guildhall=guildhal happily=happili herring=herring
hesitatingly=hesit heterogeneous=heterogen honourables=honour hop=hop hope=hope hoped=hope
hoping=hope hopped=hop hopping=hop housekeepers=housekeep howe=howe hugging=hug hying=hie
hymeneal=hymen hysteric=hyster hysterics=hyster idly=idl illiterate=illiter illnesses=ill
imaginative=imagin immediately=immedi immigrants=immigr impassioned=impass impenetrabilities=impenetr
imperatively=imper imperator=imper imperturbability=imperturb impracticality=impract
inability=inabl inactivity=inact inaugurated=inaugur incompetency=incompet inconstant=inconst
inconvenience=inconveni inconveniently=inconveni incredible=incred inculcates=inculc
incumbent=incumb incumbrance=incumbr indelicate=indel indignantly=indign induction=induct
ineffectiveness=ineffect inestimably=inestim inexpressibles=inexpress infallibility=infal
infallibly=infal inferiorities=inferior inflexibility=inflex ingrateful=ingrat inhospitality=inhospit
inning=inning innings=inning inoffensive=inoffens inquisitively=inquisit insensibly=insens
instantaneously=instantan intentionally=intent interfered=interfer interfering=interfer
internal=internal internality=internal internalization=internal internalize=internal
internalized=internal internalizes=internal internally=internal internalness=internal
international=internat internationalization=internation internationally=internat
internationals=internat internment=internment internments=internment interval=interval
intervals=interval intoxicated=intox intoxicates=intox investigators=investig irreconcilable=irreconcil
jagged=jag jammed=jam jaques=jaqu jennings=jen jocundity=jocund kimpelled=kimpel
knack=knack knackeries=knackeri knavish=knavish knowingly=know konigswinter=konigswint
labillardiere=labillardier landing=land lateral=lateral laterally=lateral laughed=laugh
leggings=leg legibly=legibl lends=lend leprosy=leprosi libelling=libel liberalism=liber
liberals=liber licentiousness=licenti lieutenancies=lieuten lifelings=lifel listen=listen
littlenesses=littl locomotives=locomot longitudinal=longitudin looseness=loos lovingness=loving
lying=lie madding=mad malignancy=malign manslaughtering=manslaught marred=mar marrying=marri
marvellously=marvel marys=mari mathematical=mathemat mathematically=mathemat matrimonially=matrimoni
maturely=matur meanly=mean merchandized=merchand metallic=metal metalliferous=metallifer
methoozellers=methoozel ministered=minist misdeeds=misde monosyllables=monosyl montmorenci=montmor
moralize=moral mountaineer=mountain muleteers=mulet multiplication=multipl municipalities=municip
musingly=muse mysteriously=mysteri naturalize=natur naturalness=natur neglectful=neglect
news=news nodded=nod nosed=nose notedly=note noticeably=notic offing=off omitted=omit
oncologist=oncolog oncologists=oncolog only=onli operationally=oper organic=organic
organically=organic organism=organism organization=organiz organizations=organiz
organize=organiz organized=organiz orgillous=orgil ornithologist=ornitholog ornithologists=ornitholog
oscillated=oscil oscillates=oscil oscillations=oscil outing=outing outsells=outsel
overlying=over pailfuls=pail palings=pale past=past paste=paste pasted=paste pasting=paste
patronizingly=patron periodicals=period permitting=permit perseveringly=persev personifications=personif
petitioning=petit pinning=pin played=play playfully=play playfulness=play politicly=polit
polysyllable=polysyl ponies=poni possibilities=possibl proceed=proceed proceeded=proceed
properties=properti propped=prop psychologist=psycholog puddings=pud puffed=puf purring=pur
rapping=rap reasonableness=reason repellent=repel representative=repres representatives=repres
representing=repres resourcefulness=resourc responsibilities=respons reveller=revel
rheumatisms=rheumat ribbed=rib ribbing=rib running=run sacrificed=sacrif sacrificing=sacrif
salvator=salvat saying=say says=say scintillate=scintil scoffing=scof senators=senat
serviceable=servic sicklied=sick sing=sing singing=sing singly=singl sinned=sin sized=size
skies=sky skimming=skim skis=ski sky=sky sobbings=sob succeed=succeed succeeded=succeed
surveillance=surveil sympathizers=sympath tastefully=tast temporizer=tempor ties=tie
topgallant=topgal toy=toy toys=toy tranquillity=tranquil tranquillize=tranquil tranquillized=tranquil
trappings=trap triangle=triangl trimmings=trim trippingly=trip troubled=troubl tying=tie
ugly=ugli uncommunicative=uncommun uncontrollably=uncontrol undeceive=undec uneventful=unev
unfallible=unfal unfrequented=unfrequ unharnessing=unhar universal=universal universally=universal
universe=univers universities=universiti university=universiti unpleasantness=unpleas
unpleasantnesses=unpleas unprevaricating=unprevar unproperly=unprop unqualitied=unqual
unrevealed=unrev unrighteousness=unright unskillful=unskil unwillingly=unwil vacillating=vacil
vituperative=vitup volunteered=volunt vying=vie wititterlys=wititt witnessed=wit
wittingly=wit yelled=yell yes=yes yesterday=yesterday youtli=yout
";

/// Words from the tool catalogue descriptions, stemmed by the Python
/// `snowballstemmer` 3.1.1 package (the reference implementation, generated from
/// the same Snowball source).
const CATALOGUE: &str = "
acceleration=acceler accessibility=access adjustments=adjust amenities=amen asynchronously=asynchron
authenticate=authent authenticating=authent authentication=authent authorization=author
automatically=automat availability=avail basketball=basketbal batting=bat bookings=book
calculator=calcul cloned=clone coefficient=coeffici complexity=complex components=compon
concurrency=concurr configurations=configur coordinate=coordin coordinates=coordin
defaults=default deployment=deploy estimators=estim excludeinactive=excludeinact
formatted=format functionality=function generator=generat genre=genr identifier=identifi
impactful=impact initialized=initi initializes=initi initializing=initi initiating=initi
inputschema=inputschema installation=instal location=locat logged=log logging=log
mapping=map mappings=map monitoring=monitor nutritional=nutrit optional=option paginated=pagin
parameters=paramet participants=particip permeability=permeabl preferences=prefer
pricing=price programming=program ratings=rate recursively=recurs relevance=relev
relevant=relev requirement=requir retrieves=retriev selectable=select sensitivity=sensit
serialized=serial serializes=serial settings=set sightseeing=sightse specifications=specif
specifying=specifi statistical=statist statistics=statist synopsys=synopsi synthetic=synthet
technologies=technolog technology=technolog tokenizer=token typically=typic updated=updat
violations=violat vulnerabilities=vulner windowsize=windows withdrawals=withdraw
yyyy=yyyi
";

/// Made-up words built from suffix fragments, stemmed by the same reference:
/// they reach rule combinations real words rarely do.
const SYNTHETIC: &str = "
abbence=abbenc alismhing=alismh alitiative=aliti alizeppranci=alizeppr ancihnfulli=ancihn
arsenoutll=arsenoutl ativeoancis=ativeo atorgalement=atorgal blifulliize=blifulli
blipivitis=blipiv bttedlyedly=btted cyatorence=cyator ddtionalic=ddtional eatppingly=eatp
edtionalbli=edtionalbl eedlyfalize=eedlyf ementhism=ementh encibgment=encibg encikhy=encikhi
entlitizer=entlit erqedlys=erq ersiveicate=ersiv essescannful=essescann fertionentli=fertion
fulabiliti=fulabl generfuls=gener iblehiedible=iblehied icalfulred=icalfulr icalscenci=icalsc
iestionalmal=iestionalm ifulant=iful iorgans=iorgan iveative=iveat iviticommun=iviticommun
ivitinalism=ivitin izeiedrsion=izeiedrs izeventional=izevent izousness=izous lfulization=lfuliz
liiativeli=liiativ llanceies=llancei llationator=llation lleeedly=lleeed mlizeralli=mlizer
nvizerance=nvizer ogiingous=ogiing ogitingly=ogit qtionaler=qtional rizerizeer=rizeriz
ssynessable=ssyness syykeedly=syyke tionalviti=tionalv uherrizeabli=uherriz unpfulness=unp
vicgicate=vicgic watorational=wator woanceentli=woanceent xantator=xantat xiunivers=xiuniv
ziedxiveness=ziedxiv
";

fn check(pairs: &str) -> usize {
    let mut count = 0;
    for pair in pairs.split_whitespace() {
        let (word, expected) = pair.split_once('=').unwrap();
        assert_eq!(stem(word), expected, "stem({word:?})");
        count += 1;
    }
    count
}

#[test]
fn official_vocabulary() {
    assert!(check(OFFICIAL) >= 300);
}

#[test]
fn catalogue_words() {
    assert!(check(CATALOGUE) >= 80);
}

#[test]
fn synthetic_words() {
    assert!(check(SYNTHETIC) >= 50);
}

#[test]
fn short_words_are_kept() {
    for word in ["", "a", "is", "as", "us", "ys", "yy", "ed"] {
        assert_eq!(stem(word), word);
    }
}

#[test]
fn exceptions() {
    for (word, expected) in [
        ("skis", "ski"),
        ("skies", "sky"),
        ("dying", "die"),
        ("lying", "lie"),
        ("tying", "tie"),
        ("idly", "idl"),
        ("gently", "gentl"),
        ("ugly", "ugli"),
        ("early", "earli"),
        ("only", "onli"),
        ("singly", "singl"),
        ("sky", "sky"),
        ("news", "news"),
        ("howe", "howe"),
        ("atlas", "atlas"),
        ("cosmos", "cosmos"),
        ("bias", "bias"),
        ("andes", "andes"),
        ("inning", "inning"),
        ("outing", "outing"),
        ("canning", "canning"),
        ("herring", "herring"),
        ("earring", "earring"),
        ("proceed", "proceed"),
        ("exceed", "exceed"),
        ("succeed", "succeed"),
    ] {
        assert_eq!(stem(word), expected, "stem({word:?})");
    }
}

#[test]
fn y_marking_is_undone() {
    assert_eq!(stem("yelled"), "yell");
    assert_eq!(stem("saying"), "say");
    assert_eq!(stem("toys"), "toy");
    assert_eq!(stem("cry"), "cri");
}

#[test]
fn other_input_passes_through() {
    for word in ["Running", "there's", "mp3s", "caf\u{e9}s", "x-ray", " cats"] {
        assert_eq!(stem(word), word);
    }
}

#[test]
fn appends_without_touching_existing_text() {
    let mut out = String::from("Yes: ");
    stem_into("relational", &mut out);
    out.push(' ');
    stem_into("yearly", &mut out);
    assert_eq!(out, "Yes: relat year");
}

#[test]
fn no_reallocation_when_capacity_suffices() {
    let mut out = String::with_capacity(64);
    let capacity = out.capacity();
    for word in ["generously", "hopping", "luxuriating", "skies", "yyyyying"] {
        out.clear();
        stem_into(word, &mut out);
    }
    assert_eq!(out.capacity(), capacity);
}
