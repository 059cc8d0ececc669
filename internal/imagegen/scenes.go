package imagegen

import (
	"image"
	"image/color"
)

// placed is one object of a scene: what to draw (kind), what a detector
// calls it (label, the kind when empty), where and in which colour.
type placed struct {
	kind  string
	label string
	box   Box
	col   color.RGBA
}

// textLine is one line of drawn text, centred in box (horizontally) at y.
type textLine struct {
	text  string
	in    Box
	y     int
	scale int
	col   color.RGBA
	// tr holds the authored translations by target language; keep marks a
	// proper name that reads the same in every language.
	tr   map[string]string
	keep bool
}

// scene is one catalog image: everything needed to draw it and describe it.
type scene struct {
	name   string
	format string // "png" or "jpeg"
	w, h   int
	title  string
	desc   string
	tags   []string
	page   string // the web page the image appears on
	lang   string // language of the drawn text
	bg     func(p *painter)
	objs   []placed
	lines  []textLine
}

func o(kind string, x, y, w, h int, c color.RGBA) placed {
	return placed{kind: kind, box: Box{x, y, w, h}, col: c}
}

func ol(kind, label string, x, y, w, h int, c color.RGBA) placed {
	return placed{kind: kind, label: label, box: Box{x, y, w, h}, col: c}
}

func t(text string, in Box, y, scale int, c color.RGBA, tr map[string]string) textLine {
	return textLine{text: text, in: in, y: y, scale: scale, col: c, tr: tr}
}

func keep(text string, in Box, y, scale int, c color.RGBA) textLine {
	return textLine{text: text, in: in, y: y, scale: scale, col: c, keep: true}
}

func tr(en, es, fr, de, pt, it string) map[string]string {
	m := map[string]string{}
	for k, v := range map[string]string{"en": en, "es": es, "fr": fr, "de": de, "pt": pt, "it": it} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// Backgrounds.

func street(wallTop, wallBottom, ground color.RGBA, groundY int) func(p *painter) {
	return func(p *painter) {
		r := p.img.Rect
		p.gradient(image.Rect(0, 0, r.Dx(), groundY), wallTop, wallBottom)
		p.rect(image.Rect(0, groundY, r.Dx(), r.Dy()), ground)
	}
}

func studio(top, bottom color.RGBA) func(p *painter) {
	return func(p *painter) { p.gradient(p.img.Rect, top, bottom) }
}

func outdoor(skyTop, skyBottom, ground color.RGBA, horizon int) func(p *painter) {
	return func(p *painter) {
		r := p.img.Rect
		p.gradient(image.Rect(0, 0, r.Dx(), horizon), skyTop, skyBottom)
		p.rect(image.Rect(0, horizon, r.Dx(), r.Dy()), ground)
	}
}

var (
	red    = rgb(200, 30, 35)
	blue   = rgb(30, 80, 170)
	navy   = rgb(25, 40, 90)
	green  = rgb(20, 120, 60)
	yellow = rgb(245, 200, 30)
	cream  = rgb(250, 244, 225)
	slate  = rgb(35, 40, 40)
	orange = rgb(240, 140, 20)
	sand   = rgb(230, 210, 160)
	sea    = rgb(40, 110, 170)
	paving = rgb(150, 145, 140)
	grass  = rgb(90, 160, 70)
)

// scenes is the catalog, in order. Coordinates are authored; the boxes in
// images.json are measured from what is actually drawn.
var scenes = []scene{
	{
		name: "lisbon_street_sign", format: "png", w: 480, h: 320, lang: "pt",
		title: "Rua Augusta street sign, Lisbon",
		desc:  "Blue and white azulejo street name plate reading RUA AUGUSTA in the Baixa district of Lisbon, with pedestrians walking below.",
		tags:  []string{"lisbon", "portugal", "street sign", "azulejo", "baixa", "portuguese", "text"},
		page:  "https://www.visitlisboa.com/en/places/rua-augusta",
		bg:    street(rgb(236, 222, 196), rgb(214, 196, 166), paving, 250),
		objs: []placed{
			ol("sign", "street sign", 90, 40, 300, 110, blue),
			o("person", 380, 140, 60, 150, rgb(180, 60, 60)),
			o("person", 30, 160, 50, 130, rgb(60, 120, 160)),
		},
		lines: []textLine{
			t("RUA AUGUSTA", Box{90, 40, 300, 110}, 58, 4, white, tr("AUGUSTA STREET", "CALLE AUGUSTA", "RUE AUGUSTA", "AUGUSTASTRASSE", "", "VIA AUGUSTA")),
			t("BAIXA - LISBOA", Box{90, 40, 300, 110}, 114, 2, white, tr("DOWNTOWN - LISBON", "BAIXA - LISBOA", "BAIXA - LISBONNE", "BAIXA - LISSABON", "", "BAIXA - LISBONA")),
		},
	},
	{
		name: "paris_metro_exit_sign", format: "png", w: 480, h: 320, lang: "fr",
		title: "Paris metro exit sign",
		desc:  "Green Paris metro station sign reading SORTIE (exit) above the platform access direction, two travellers walking past.",
		tags:  []string{"paris", "france", "metro", "exit", "street sign", "french", "text", "subway"},
		page:  "https://www.ratp.fr/en/plans-lignes/metro",
		bg:    street(rgb(225, 225, 215), rgb(190, 190, 180), rgb(120, 110, 100), 260),
		objs: []placed{
			ol("sign", "street sign", 60, 40, 360, 100, rgb(20, 90, 70)),
			o("person", 90, 160, 56, 140, rgb(70, 70, 140)),
			o("person", 320, 150, 60, 150, rgb(150, 100, 40)),
		},
		lines: []textLine{
			t("SORTIE", Box{60, 40, 360, 100}, 50, 5, white, tr("EXIT", "SALIDA", "", "AUSGANG", "SAÍDA", "USCITA")),
			t("ACCÈS AUX QUAIS", Box{60, 40, 360, 100}, 112, 2, white, tr("ACCESS TO PLATFORMS", "ACCESO A LOS ANDENES", "", "ZUGANG ZU DEN BAHNSTEIGEN", "ACESSO ÀS PLATAFORMAS", "ACCESSO AI BINARI")),
		},
	},
	{
		name: "berlin_construction_sign", format: "jpeg", w: 480, h: 360, lang: "de",
		title: "Construction warning sign in Berlin",
		desc:  "Yellow German road sign reading ACHTUNG BAUSTELLE (caution, construction site) next to a traffic light, with a red car parked on the street.",
		tags:  []string{"berlin", "germany", "construction", "warning", "street sign", "german", "car", "traffic light", "text"},
		page:  "https://www.berlin.de/en/traffic/roadworks",
		bg:    outdoor(rgb(150, 190, 230), rgb(210, 225, 240), rgb(110, 110, 115), 240),
		objs: []placed{
			ol("sign", "street sign", 120, 30, 280, 110, yellow),
			o("traffic light", 40, 60, 40, 100, slate),
			o("car", 240, 230, 200, 100, red),
		},
		lines: []textLine{
			t("ACHTUNG", Box{120, 30, 280, 110}, 44, 4, black, tr("CAUTION", "ATENCIÓN", "ATTENTION", "", "ATENÇÃO", "ATTENZIONE")),
			t("BAUSTELLE", Box{120, 30, 280, 110}, 96, 3, black, tr("CONSTRUCTION SITE", "OBRAS", "CHANTIER", "", "OBRAS", "CANTIERE")),
		},
	},
	{
		name: "madrid_pharmacy_sign", format: "png", w: 480, h: 320, lang: "es",
		title: "Pharmacy sign in Madrid",
		desc:  "Green shop sign reading FARMACIA and ABIERTO 24 HORAS (open 24 hours) above a pharmacy in Madrid, a customer at the door.",
		tags:  []string{"madrid", "spain", "pharmacy", "shop sign", "spanish", "open 24 hours", "text"},
		page:  "https://www.esmadrid.com/en/pharmacies-madrid",
		bg:    street(rgb(240, 236, 228), rgb(220, 214, 204), paving, 270),
		objs: []placed{
			ol("sign", "sign", 80, 30, 320, 110, green),
			o("person", 380, 150, 56, 140, rgb(200, 120, 40)),
		},
		lines: []textLine{
			t("FARMACIA", Box{80, 30, 320, 110}, 44, 4, white, tr("PHARMACY", "", "PHARMACIE", "APOTHEKE", "FARMÁCIA", "FARMACIA")),
			t("ABIERTO 24 HORAS", Box{80, 30, 320, 110}, 104, 2, white, tr("OPEN 24 HOURS", "", "OUVERT 24 HEURES SUR 24", "24 STUNDEN GEÖFFNET", "ABERTO 24 HORAS", "APERTO 24 ORE")),
		},
	},
	{
		name: "tokyo_station_exit_sign", format: "png", w: 480, h: 320, lang: "ja",
		title: "Tokyo Station exit sign (romanised)",
		desc:  "Yellow station sign reading DEGUCHI (exit) and TOKYO EKI (Tokyo Station) in romanised Japanese, with a bus outside and a commuter.",
		tags:  []string{"tokyo", "japan", "station", "exit", "street sign", "japanese", "romaji", "bus", "text"},
		page:  "https://www.japan-guide.com/e/e3005.html",
		bg:    street(rgb(230, 230, 235), rgb(205, 205, 212), rgb(100, 100, 105), 250),
		objs: []placed{
			ol("sign", "street sign", 100, 24, 280, 100, yellow),
			o("person", 40, 140, 56, 150, navy),
			o("bus", 180, 190, 270, 100, rgb(40, 150, 90)),
		},
		lines: []textLine{
			t("DEGUCHI", Box{100, 24, 280, 100}, 36, 4, black, tr("EXIT", "SALIDA", "SORTIE", "AUSGANG", "SAÍDA", "USCITA")),
			t("TOKYO EKI", Box{100, 24, 280, 100}, 86, 3, black, tr("TOKYO STATION", "ESTACIÓN DE TOKIO", "GARE DE TOKYO", "BAHNHOF TOKIO", "ESTAÇÃO DE TÓQUIO", "STAZIONE DI TOKYO")),
		},
	},
	{
		name: "stop_sign", format: "png", w: 480, h: 360, lang: "en",
		title: "Stop sign at a quiet intersection",
		desc:  "Red octagonal STOP sign on a suburban corner with a tree behind it and a blue car waiting at the line.",
		tags:  []string{"stop sign", "traffic", "road", "intersection", "car", "tree", "english", "text"},
		page:  "https://www.example-driving-school.com/rules/stop-signs",
		bg:    outdoor(rgb(120, 170, 225), rgb(200, 220, 240), rgb(100, 100, 100), 250),
		objs: []placed{
			o("tree", 20, 60, 150, 200, leaf),
			o("stop sign", 180, 40, 140, 140, red),
			o("car", 300, 240, 160, 90, blue),
		},
		lines: []textLine{
			t("STOP", Box{180, 40, 140, 140}, 88, 5, white, tr("", "PARE", "ARRÊT", "HALT", "PARE", "FERMATI")),
		},
	},
	{
		name: "rome_via_del_corso_sign", format: "jpeg", w: 480, h: 320, lang: "it",
		title: "Via del Corso street sign, Rome",
		desc:  "Marble street plaque reading VIA DEL CORSO and ROMA on an ochre wall in central Rome, a small car and a pedestrian below.",
		tags:  []string{"rome", "italy", "street sign", "via del corso", "italian", "car", "text"},
		page:  "https://www.turismoroma.it/en/places/via-del-corso",
		bg:    street(rgb(214, 150, 80), rgb(190, 120, 60), paving, 240),
		objs: []placed{
			ol("sign", "street sign", 110, 30, 260, 100, rgb(235, 232, 222)),
			o("car", 260, 220, 180, 90, rgb(230, 200, 40)),
			o("person", 60, 150, 56, 150, rgb(90, 40, 120)),
		},
		lines: []textLine{
			t("VIA DEL CORSO", Box{110, 30, 260, 100}, 48, 3, rgb(60, 40, 30), tr("CORSO STREET", "CALLE DEL CORSO", "RUE DU CORSO", "CORSOSTRASSE", "RUA DO CORSO", "")),
			t("ROMA", Box{110, 30, 260, 100}, 90, 3, rgb(60, 40, 30), tr("ROME", "ROMA", "ROME", "ROM", "ROMA", "")),
		},
	},
	{
		name: "lisbon_bakery_storefront", format: "jpeg", w: 640, h: 480, lang: "pt",
		title: "Bakery storefront in Lisbon",
		desc:  "Storefront of a Lisbon bakery with a sign reading PADARIA and PÃO QUENTE (hot bread), potted plants either side of the door and a customer.",
		tags:  []string{"lisbon", "portugal", "bakery", "storefront", "shop sign", "portuguese", "bread", "text"},
		page:  "https://www.timeout.com/lisbon/restaurants/best-bakeries-in-lisbon",
		bg:    street(rgb(245, 240, 230), rgb(225, 215, 200), paving, 400),
		objs: []placed{
			ol("sign", "sign", 120, 30, 400, 130, rgb(120, 30, 40)),
			o("potted plant", 60, 280, 100, 140, leaf),
			o("potted plant", 480, 280, 100, 140, leaf),
			o("person", 280, 220, 80, 220, rgb(40, 100, 160)),
		},
		lines: []textLine{
			t("PADARIA", Box{120, 30, 400, 130}, 46, 5, cream, tr("BAKERY", "PANADERÍA", "BOULANGERIE", "BÄCKEREI", "", "PANETTERIA")),
			t("PÃO QUENTE", Box{120, 30, 400, 130}, 114, 3, cream, tr("HOT BREAD", "PAN CALIENTE", "PAIN CHAUD", "WARMES BROT", "", "PANE CALDO")),
		},
	},
	{
		name: "paris_cafe_menu", format: "png", w: 480, h: 400, lang: "fr",
		title: "Chalkboard menu of a Paris café",
		desc:  "Café chalkboard listing the MENU DU JOUR: onion soup, croque monsieur, crème brûlée and coffee with prices in euros, with a glass of wine and a coffee cup beside it.",
		tags:  []string{"paris", "france", "cafe", "menu", "chalkboard", "french", "food", "prices", "text"},
		page:  "https://www.parisinfo.com/where-to-eat-in-paris/cafes",
		bg:    studio(rgb(180, 140, 100), rgb(140, 100, 70)),
		objs: []placed{
			ol("paper", "menu", 16, 16, 330, 368, slate),
			o("wine glass", 380, 150, 60, 120, rgb(130, 20, 50)),
			o("cup", 360, 300, 100, 70, white),
		},
		lines: []textLine{
			t("MENU DU JOUR", Box{16, 16, 330, 368}, 40, 3, white, tr("TODAY'S MENU", "MENÚ DEL DÍA", "", "TAGESMENÜ", "MENU DO DIA", "MENU DEL GIORNO")),
			t("SOUPE À L'OIGNON 8 €", Box{16, 16, 330, 368}, 120, 2, white, tr("ONION SOUP 8 €", "SOPA DE CEBOLLA 8 €", "", "ZWIEBELSUPPE 8 €", "SOPA DE CEBOLA 8 €", "ZUPPA DI CIPOLLE 8 €")),
			t("CROQUE MONSIEUR 12 €", Box{16, 16, 330, 368}, 170, 2, white, tr("HAM AND CHEESE TOASTIE 12 €", "SÁNDWICH DE JAMÓN Y QUESO 12 €", "", "SCHINKEN-KÄSE-TOAST 12 €", "TOSTA DE FIAMBRE E QUEIJO 12 €", "TOAST PROSCIUTTO E FORMAGGIO 12 €")),
			t("CRÈME BRÛLÉE 7 €", Box{16, 16, 330, 368}, 220, 2, white, tr("CRÈME BRÛLÉE 7 €", "CREMA QUEMADA 7 €", "", "CRÈME BRÛLÉE 7 €", "CREME QUEIMADO 7 €", "CREMA BRUCIATA 7 €")),
			t("CAFÉ 2,50 €", Box{16, 16, 330, 368}, 270, 2, white, tr("COFFEE 2.50 €", "CAFÉ 2,50 €", "", "KAFFEE 2,50 €", "CAFÉ 2,50 €", "CAFFÈ 2,50 €")),
		},
	},
	{
		name: "madrid_tapas_menu", format: "png", w: 480, h: 400, lang: "es",
		title: "Tapas menu board in Madrid",
		desc:  "Tapas bar menu board listing patatas bravas, croquetas, tortilla española and sangría with prices in euros, next to a glass of red wine.",
		tags:  []string{"madrid", "spain", "tapas", "menu", "spanish", "food", "bar", "prices", "text"},
		page:  "https://www.esmadrid.com/en/tapas-madrid",
		bg:    studio(rgb(200, 90, 50), rgb(160, 60, 30)),
		objs: []placed{
			ol("paper", "menu", 20, 20, 330, 360, cream),
			o("wine glass", 382, 180, 64, 130, rgb(120, 10, 40)),
		},
		lines: []textLine{
			t("TAPAS", Box{20, 20, 330, 360}, 44, 4, red, tr("TAPAS", "", "TAPAS", "TAPAS", "PETISCOS", "STUZZICHINI")),
			t("PATATAS BRAVAS 5 €", Box{20, 20, 330, 360}, 130, 2, black, tr("SPICY POTATOES 5 €", "", "POMMES DE TERRE ÉPICÉES 5 €", "SCHARFE KARTOFFELN 5 €", "BATATAS PICANTES 5 €", "PATATE PICCANTI 5 €")),
			t("CROQUETAS 6 €", Box{20, 20, 330, 360}, 180, 2, black, tr("CROQUETTES 6 €", "", "CROQUETTES 6 €", "KROKETTEN 6 €", "CROQUETES 6 €", "CROCCHETTE 6 €")),
			t("TORTILLA ESPAÑOLA 7 €", Box{20, 20, 330, 360}, 230, 2, black, tr("SPANISH OMELETTE 7 €", "", "OMELETTE ESPAGNOLE 7 €", "SPANISCHES OMELETT 7 €", "TORTILHA ESPANHOLA 7 €", "FRITTATA SPAGNOLA 7 €")),
			t("SANGRÍA 4 €", Box{20, 20, 330, 360}, 280, 2, black, tr("SANGRIA 4 €", "", "SANGRIA 4 €", "SANGRIA 4 €", "SANGRIA 4 €", "SANGRIA 4 €")),
		},
	},
	{
		name: "grocery_receipt", format: "png", w: 320, h: 480, lang: "en",
		title: "Grocery store receipt",
		desc:  "Printed receipt from FRESH MARKET listing apples, milk and bread with a total of 7.10.",
		tags:  []string{"receipt", "grocery", "shopping", "prices", "english", "text", "document"},
		page:  "https://www.example-budget-blog.com/grocery-receipts",
		bg:    studio(rgb(90, 90, 100), rgb(60, 60, 70)),
		objs: []placed{
			ol("paper", "receipt", 30, 20, 260, 440, white),
		},
		lines: []textLine{
			keep("FRESH MARKET", Box{30, 20, 260, 440}, 50, 3, black),
			t("APPLES 1KG 3.20", Box{30, 20, 260, 440}, 140, 2, black, tr("", "MANZANAS 1KG 3.20", "POMMES 1KG 3.20", "ÄPFEL 1KG 3.20", "MAÇÃS 1KG 3.20", "MELE 1KG 3.20")),
			t("MILK 1L 1.50", Box{30, 20, 260, 440}, 180, 2, black, tr("", "LECHE 1L 1.50", "LAIT 1L 1.50", "MILCH 1L 1.50", "LEITE 1L 1.50", "LATTE 1L 1.50")),
			t("BREAD 2.40", Box{30, 20, 260, 440}, 220, 2, black, tr("", "PAN 2.40", "PAIN 2.40", "BROT 2.40", "PÃO 2.40", "PANE 2.40")),
			t("TOTAL 7.10", Box{30, 20, 260, 440}, 290, 3, black, tr("", "TOTAL 7.10", "TOTAL 7.10", "SUMME 7.10", "TOTAL 7.10", "TOTALE 7.10")),
			t("THANK YOU!", Box{30, 20, 260, 440}, 380, 2, black, tr("", "¡GRACIAS!", "MERCI !", "DANKE!", "OBRIGADO!", "GRAZIE!")),
		},
	},
	{
		name: "lisbon_cafe_receipt", format: "png", w: 320, h: 400, lang: "pt",
		title: "Café receipt from Lisbon",
		desc:  "Receipt from CAFÉ CENTRAL in Lisbon for a bica (espresso) and a pastel de nata, total 2,00 euros.",
		tags:  []string{"lisbon", "portugal", "receipt", "cafe", "pastel de nata", "portuguese", "prices", "text", "document"},
		page:  "https://www.lisbon-food-blog.com/pastel-de-nata-prices",
		bg:    studio(rgb(120, 90, 70), rgb(90, 60, 45)),
		objs: []placed{
			ol("paper", "receipt", 30, 20, 260, 360, cream),
		},
		lines: []textLine{
			keep("CAFÉ CENTRAL", Box{30, 20, 260, 360}, 50, 3, black),
			t("BICA 0,80", Box{30, 20, 260, 360}, 130, 2, black, tr("ESPRESSO 0,80", "CAFÉ SOLO 0,80", "EXPRESSO 0,80", "ESPRESSO 0,80", "", "ESPRESSO 0,80")),
			t("PASTEL DE NATA 1,20", Box{30, 20, 260, 360}, 170, 2, black, tr("CUSTARD TART 1,20", "PASTEL DE NATA 1,20", "TARTELETTE À LA CRÈME 1,20", "PUDDINGTÖRTCHEN 1,20", "", "PASTICCINO ALLA CREMA 1,20")),
			t("TOTAL 2,00 €", Box{30, 20, 260, 360}, 230, 3, black, tr("TOTAL 2,00 €", "TOTAL 2,00 €", "TOTAL 2,00 €", "SUMME 2,00 €", "", "TOTALE 2,00 €")),
			t("OBRIGADO", Box{30, 20, 260, 360}, 310, 2, black, tr("THANK YOU", "GRACIAS", "MERCI", "DANKE", "", "GRAZIE")),
		},
	},
	{
		name: "berlin_summer_concert_poster", format: "png", w: 360, h: 480, lang: "de",
		title: "Summer concert poster, Berlin",
		desc:  "Poster announcing a SOMMERKONZERT in the Tiergarten on Saturday 21 June at 19:00, free admission, with a singer silhouette.",
		tags:  []string{"berlin", "germany", "poster", "concert", "music", "summer", "german", "event", "text"},
		page:  "https://www.visitberlin.de/en/event-calendar-berlin",
		bg:    studio(rgb(200, 200, 205), rgb(170, 170, 175)),
		objs: []placed{
			ol("paper", "poster", 20, 20, 320, 440, rgb(250, 210, 60)),
			o("person", 150, 250, 60, 140, navy),
		},
		lines: []textLine{
			t("SOMMERKONZERT", Box{20, 20, 320, 440}, 46, 3, navy, tr("SUMMER CONCERT", "CONCIERTO DE VERANO", "CONCERT D'ÉTÉ", "", "CONCERTO DE VERÃO", "CONCERTO D'ESTATE")),
			t("SAMSTAG 21. JUNI", Box{20, 20, 320, 440}, 110, 2, black, tr("SATURDAY 21 JUNE", "SÁBADO 21 DE JUNIO", "SAMEDI 21 JUIN", "", "SÁBADO 21 DE JUNHO", "SABATO 21 GIUGNO")),
			t("TIERGARTEN 19 UHR", Box{20, 20, 320, 440}, 150, 2, black, tr("TIERGARTEN 7 PM", "TIERGARTEN 19 H", "TIERGARTEN 19 H", "", "TIERGARTEN 19H", "TIERGARTEN ORE 19")),
			t("EINTRITT FREI", Box{20, 20, 320, 440}, 410, 3, red, tr("FREE ADMISSION", "ENTRADA LIBRE", "ENTRÉE LIBRE", "", "ENTRADA LIVRE", "INGRESSO LIBERO")),
		},
	},
	{
		name: "go_conference_poster", format: "png", w: 480, h: 360, lang: "en",
		title: "Go conference poster, Lisbon 2025",
		desc:  "Poster for GO CONF 2025 in Lisbon on June 12-13 with a REGISTER NOW call to action and a laptop illustration.",
		tags:  []string{"conference", "poster", "programming", "go", "lisbon", "event", "english", "laptop", "text"},
		page:  "https://www.goconf.example.com/2025",
		bg:    studio(rgb(235, 235, 240), rgb(210, 210, 220)),
		objs: []placed{
			ol("paper", "poster", 20, 20, 440, 320, rgb(0, 173, 216)),
			o("laptop", 300, 190, 140, 100, grey),
		},
		lines: []textLine{
			keep("GO CONF 2025", Box{20, 20, 440, 320}, 44, 4, white),
			t("JUNE 12-13 LISBON", Box{20, 20, 260, 320}, 140, 2, white, tr("", "12-13 DE JUNIO LISBOA", "12-13 JUIN LISBONNE", "12.-13. JUNI LISSABON", "12-13 DE JUNHO LISBOA", "12-13 GIUGNO LISBONA")),
			t("REGISTER NOW", Box{20, 20, 260, 320}, 200, 2, yellow, tr("", "REGÍSTRATE AHORA", "INSCRIVEZ-VOUS", "JETZT ANMELDEN", "INSCREVA-SE JÁ", "ISCRIVITI ORA")),
		},
	},
	{
		name: "museum_opening_hours", format: "png", w: 480, h: 360, lang: "fr",
		title: "Museum opening hours sign",
		desc:  "Sign at the entrance of a French fine arts museum: MUSÉE DES BEAUX-ARTS, open 9h to 18h, closed on Mondays.",
		tags:  []string{"museum", "france", "opening hours", "sign", "french", "art", "text"},
		page:  "https://www.france.fr/en/museums/opening-hours",
		bg:    street(rgb(210, 205, 195), rgb(180, 175, 165), paving, 320),
		objs: []placed{
			ol("sign", "sign", 60, 40, 360, 240, navy),
		},
		lines: []textLine{
			t("MUSÉE DES BEAUX-ARTS", Box{60, 40, 360, 240}, 70, 2, white, tr("MUSEUM OF FINE ARTS", "MUSEO DE BELLAS ARTES", "", "MUSEUM DER SCHÖNEN KÜNSTE", "MUSEU DE BELAS-ARTES", "MUSEO DI BELLE ARTI")),
			t("OUVERT 9H - 18H", Box{60, 40, 360, 240}, 140, 2, white, tr("OPEN 9 AM - 6 PM", "ABIERTO 9H - 18H", "", "GEÖFFNET 9 - 18 UHR", "ABERTO 9H - 18H", "APERTO 9 - 18")),
			t("FERMÉ LE LUNDI", Box{60, 40, 360, 240}, 200, 2, yellow, tr("CLOSED ON MONDAYS", "CERRADO LOS LUNES", "", "MONTAGS GESCHLOSSEN", "ENCERRADO À SEGUNDA", "CHIUSO IL LUNEDÌ")),
		},
	},
	{
		name: "product_coffee_mug", format: "jpeg", w: 480, h: 360, lang: "",
		title: "White ceramic coffee mug",
		desc:  "Product photo of a plain white ceramic coffee mug on a light grey studio background.",
		tags:  []string{"product", "mug", "cup", "coffee", "kitchen", "white background", "studio"},
		page:  "https://www.example-homeware.com/products/ceramic-mug",
		bg:    studio(rgb(236, 236, 236), rgb(214, 214, 214)),
		objs:  []placed{o("cup", 160, 90, 170, 190, rgb(245, 245, 240))},
	},
	{
		name: "product_water_bottle", format: "jpeg", w: 360, h: 480, lang: "",
		title: "Blue reusable water bottle",
		desc:  "Product photo of a blue reusable water bottle with a white label band on a plain white background.",
		tags:  []string{"product", "bottle", "water", "reusable", "white background", "studio"},
		page:  "https://www.example-outdoor-shop.com/products/water-bottle",
		bg:    studio(rgb(252, 252, 252), rgb(235, 235, 235)),
		objs:  []placed{o("bottle", 120, 60, 120, 360, rgb(60, 130, 210))},
	},
	{
		name: "product_red_apple", format: "png", w: 320, h: 320, lang: "",
		title: "Red apple on white",
		desc:  "Studio photo of a single red apple with a stem and a green leaf, isolated on a white background.",
		tags:  []string{"product", "apple", "fruit", "food", "red", "white background", "studio"},
		page:  "https://www.example-grocer.com/fruit/red-apple",
		bg:    studio(rgb(255, 255, 255), rgb(240, 240, 240)),
		objs:  []placed{o("apple", 80, 70, 160, 180, red)},
	},
	{
		name: "product_laptop", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Silver laptop, open",
		desc:  "Product photo of an open silver laptop with a blue screen on a neutral studio background.",
		tags:  []string{"product", "laptop", "computer", "electronics", "studio"},
		page:  "https://www.example-electronics.com/laptops/silver-14",
		bg:    studio(rgb(230, 232, 236), rgb(200, 204, 210)),
		objs:  []placed{o("laptop", 140, 110, 360, 260, rgb(190, 192, 198))},
	},
	{
		name: "product_wooden_chair", format: "png", w: 360, h: 480, lang: "",
		title: "Wooden chair, side view",
		desc:  "Side view of a simple wooden chair with a straight back, isolated on a pale background.",
		tags:  []string{"product", "chair", "furniture", "wood", "studio"},
		page:  "https://www.example-furniture.com/chairs/oak-side-chair",
		bg:    studio(rgb(245, 240, 232), rgb(228, 220, 208)),
		objs:  []placed{o("chair", 90, 80, 180, 330, wood)},
	},
	{
		name: "product_backpack", format: "jpeg", w: 360, h: 480, lang: "",
		title: "Orange hiking backpack",
		desc:  "Product photo of an orange hiking backpack with a front pocket on a white background.",
		tags:  []string{"product", "backpack", "bag", "hiking", "orange", "travel", "studio"},
		page:  "https://www.example-outdoor-shop.com/products/daypack-25",
		bg:    studio(rgb(250, 250, 250), rgb(232, 232, 232)),
		objs:  []placed{o("backpack", 90, 70, 180, 320, orange)},
	},
	{
		name: "product_wall_clock", format: "png", w: 400, h: 400, lang: "",
		title: "Black wall clock",
		desc:  "Round wall clock with a black frame and white face showing three o'clock, on a plain background.",
		tags:  []string{"product", "clock", "wall clock", "time", "home decor", "studio"},
		page:  "https://www.example-homeware.com/products/wall-clock",
		bg:    studio(rgb(240, 240, 244), rgb(220, 220, 226)),
		objs:  []placed{o("clock", 80, 80, 240, 240, black)},
	},
	{
		name: "product_city_guide_book", format: "png", w: 360, h: 480, lang: "en",
		title: "Lisbon city guide book",
		desc:  "Front cover of a travel guide book titled LISBON CITY GUIDE, photographed on a plain background.",
		tags:  []string{"product", "book", "travel guide", "lisbon", "english", "text", "studio"},
		page:  "https://www.example-bookshop.com/travel/lisbon-city-guide",
		bg:    studio(rgb(238, 238, 238), rgb(216, 216, 216)),
		objs:  []placed{o("book", 60, 40, 240, 400, rgb(20, 110, 140))},
		lines: []textLine{
			t("LISBON", Box{60, 40, 240, 400}, 120, 4, white, tr("", "LISBOA", "LISBONNE", "LISSABON", "LISBOA", "LISBONA")),
			t("CITY GUIDE", Box{60, 40, 240, 400}, 190, 3, yellow, tr("", "GUÍA DE LA CIUDAD", "GUIDE DE LA VILLE", "STADTFÜHRER", "GUIA DA CIDADE", "GUIDA DELLA CITTÀ")),
		},
	},
	{
		name: "city_street_traffic", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Busy city street with traffic",
		desc:  "City street scene with two cars and a bus in traffic, pedestrians on the pavement, a traffic light and a street tree.",
		tags:  []string{"city", "street", "traffic", "car", "bus", "person", "traffic light", "tree", "urban"},
		page:  "https://www.example-urban-photos.com/street/traffic",
		bg:    outdoor(rgb(140, 180, 225), rgb(205, 220, 238), rgb(95, 95, 100), 300),
		objs: []placed{
			o("tree", 520, 110, 110, 200, leaf),
			o("traffic light", 470, 120, 36, 90, slate),
			o("bus", 40, 220, 300, 120, red),
			o("car", 360, 320, 170, 90, blue),
			o("car", 80, 360, 160, 85, rgb(240, 240, 240)),
			o("person", 560, 330, 40, 110, rgb(160, 60, 120)),
			o("person", 20, 120, 34, 95, rgb(60, 140, 90)),
		},
	},
	{
		name: "park_dog_walk", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Dog walk in the park",
		desc:  "A person walking a brown dog in a green park, with two trees, a wooden bench and a bird in the sky.",
		tags:  []string{"park", "dog", "pet", "person", "tree", "bench", "bird", "outdoors", "nature"},
		page:  "https://www.example-pet-blog.com/walks/city-parks",
		bg:    outdoor(rgb(110, 170, 230), rgb(190, 220, 245), grass, 280),
		objs: []placed{
			o("tree", 20, 80, 180, 260, leaf),
			o("tree", 470, 100, 150, 230, rgb(60, 150, 70)),
			o("bench", 220, 270, 170, 80, wood),
			o("bird", 330, 50, 60, 40, navy),
			o("person", 400, 250, 70, 190, rgb(200, 70, 60)),
			o("dog", 250, 370, 130, 80, rgb(140, 90, 50)),
		},
	},
	{
		name: "beach_umbrellas", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Beach with umbrellas and a sailing boat",
		desc:  "Sandy beach with two striped umbrellas, a sunbather, a sailing boat on the sea and a seagull.",
		tags:  []string{"beach", "sea", "summer", "umbrella", "boat", "person", "bird", "holiday", "coast"},
		page:  "https://www.example-travel.com/algarve/best-beaches",
		bg: func(p *painter) {
			outdoor(rgb(90, 160, 230), rgb(180, 215, 245), sea, 220)(p)
			p.rect(image.Rect(0, 320, 640, 480), sand)
		},
		objs: []placed{
			o("boat", 380, 120, 160, 130, rgb(200, 60, 40)),
			o("bird", 120, 60, 56, 36, white),
			o("umbrella", 60, 230, 180, 200, red),
			o("umbrella", 300, 260, 160, 180, rgb(40, 120, 200)),
			o("person", 480, 320, 60, 140, rgb(230, 120, 40)),
		},
	},
	{
		name: "kitchen_table_breakfast", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Breakfast on a kitchen table",
		desc:  "Kitchen table with a coffee cup, a bottle of juice, two apples, an orange and a glass of wine.",
		tags:  []string{"kitchen", "table", "breakfast", "food", "cup", "bottle", "apple", "orange", "wine glass"},
		page:  "https://www.example-recipes.com/breakfast-ideas",
		bg:    street(rgb(240, 235, 225), rgb(225, 215, 200), rgb(170, 120, 80), 260),
		objs: []placed{
			o("cup", 60, 280, 110, 100, white),
			o("bottle", 210, 130, 90, 270, orange),
			o("apple", 330, 300, 80, 90, red),
			o("apple", 420, 310, 75, 85, rgb(120, 180, 50)),
			o("orange", 510, 310, 80, 80, orange),
			o("wine glass", 540, 150, 60, 140, rgb(150, 20, 60)),
		},
	},
	{
		name: "office_desk", format: "png", w: 640, h: 480, lang: "",
		title: "Home office desk",
		desc:  "Tidy home office desk with an open laptop, a coffee cup, a book, a wall clock and a potted plant.",
		tags:  []string{"office", "desk", "work", "laptop", "cup", "book", "clock", "potted plant", "indoor"},
		page:  "https://www.example-workspace.com/home-office-setup",
		bg:    street(rgb(230, 235, 240), rgb(210, 218, 226), rgb(160, 120, 80), 330),
		objs: []placed{
			o("clock", 60, 40, 110, 110, black),
			o("potted plant", 500, 180, 110, 160, leaf),
			o("laptop", 200, 200, 240, 170, grey),
			o("book", 40, 300, 120, 80, rgb(160, 40, 40)),
			o("cup", 460, 350, 80, 80, rgb(240, 240, 235)),
		},
	},
	{
		name: "suburban_house", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Suburban house with a car and a dog",
		desc:  "Suburban house with a red roof, a tree in the front garden, a car in the drive and a dog on the lawn.",
		tags:  []string{"house", "home", "suburb", "real estate", "tree", "car", "dog", "garden"},
		page:  "https://www.example-realty.com/listings/maple-street-12",
		bg:    outdoor(rgb(120, 175, 230), rgb(200, 225, 245), grass, 330),
		objs: []placed{
			o("house", 160, 60, 320, 300, rgb(240, 230, 200)),
			o("tree", 20, 130, 150, 230, leaf),
			o("car", 440, 320, 180, 100, rgb(50, 50, 60)),
			o("dog", 230, 380, 110, 70, rgb(220, 180, 110)),
		},
	},
	{
		name: "harbour_boats", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Fishing boats in a harbour",
		desc:  "Three small sailing boats moored in a calm harbour with two seagulls overhead.",
		tags:  []string{"harbour", "port", "boat", "sea", "bird", "seagull", "coast", "fishing"},
		page:  "https://www.example-travel.com/portugal/fishing-villages",
		bg:    outdoor(rgb(100, 160, 220), rgb(200, 225, 245), sea, 240),
		objs: []placed{
			o("boat", 40, 180, 180, 170, rgb(220, 60, 50)),
			o("boat", 250, 200, 160, 150, rgb(40, 90, 180)),
			o("boat", 440, 190, 170, 160, rgb(240, 200, 40)),
			o("bird", 200, 50, 60, 40, white),
			o("bird", 380, 80, 50, 34, white),
		},
	},
	{
		name: "cat_on_chair", format: "png", w: 480, h: 360, lang: "",
		title: "Cat sitting on a chair",
		desc:  "A grey cat resting on the seat of a wooden chair in a plain room.",
		tags:  []string{"cat", "pet", "chair", "indoor", "animal", "furniture"},
		page:  "https://www.example-pet-blog.com/cats/favourite-spots",
		bg:    street(rgb(235, 225, 210), rgb(215, 205, 190), rgb(150, 110, 80), 300),
		objs: []placed{
			o("chair", 120, 60, 240, 270, wood),
			o("cat", 170, 120, 150, 100, rgb(130, 130, 140)),
		},
	},
	{
		name: "pizza_dinner", format: "jpeg", w: 640, h: 480, lang: "",
		title: "Pizza dinner for two",
		desc:  "Top-down view of a pizza on a table with two glasses of red wine and a bottle.",
		tags:  []string{"pizza", "dinner", "food", "italian", "wine glass", "bottle", "restaurant"},
		page:  "https://www.example-recipes.com/pizza-night",
		bg:    studio(rgb(120, 80, 50), rgb(90, 55, 35)),
		objs: []placed{
			o("pizza", 170, 110, 260, 260, rgb(230, 90, 50)),
			o("wine glass", 40, 150, 70, 150, rgb(130, 20, 50)),
			o("wine glass", 480, 170, 70, 150, rgb(130, 20, 50)),
			o("bottle", 560, 60, 70, 240, rgb(30, 80, 40)),
		},
	},
}
