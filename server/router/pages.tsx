/**
 * The respondent's pages, rendered on the server with React (react-dom/server): the pre-screen
 * questions and plain, friendly messages when there is no supplier redirect to send them on to.
 * No script, small inline style, readable on a phone; in the project's language, English otherwise.
 */
import { renderToString } from "react-dom/server";
import type { PrescreenQuestion } from "../domain/router/config.ts";
import { titleIn, visibleOptions } from "../domain/router/prescreen.ts";
import { MSG } from "../../shared/messages.ts";

type Text = {
  heading: string;
  intro: string;
  next: string;
  required: string;
  choose: string;
  closed: [string, string];
  thanks: [string, string];
  terminate: [string, string];
  overQuota: [string, string];
  quality: [string, string];
  notFound: [string, string];
  missingSid: [string, string];
  forged: [string, string];
  badStatus: [string, string];
  busy: [string, string];
};

const EN: Text = {
  heading: "A few questions first",
  intro: "Please answer these questions to see whether this survey is right for you.",
  next: "Continue",
  required: "Please answer this question.",
  choose: "Choose one",
  closed: [
    "This survey is closed",
    "Thank you for your interest. This survey is not taking more answers right now.",
  ],
  thanks: ["Thank you!", "Your answers have been recorded. You can close this page."],
  terminate: [
    "Thank you for your time",
    "Unfortunately you do not match the people this survey is looking for. You can close this page.",
  ],
  overQuota: [
    "Thank you for your time",
    "This survey already has enough answers from people like you. You can close this page.",
  ],
  quality: ["Thank you", "We cannot accept your answers for this survey. You can close this page."],
  // the spec's not-found page (part 1, 2.1): unknown supplier links, sessions and /survey paths
  notFound: [MSG.notFoundTitle, MSG.notFoundText],
  missingSid: ["Link incomplete", "This survey link is missing your respondent identifier."],
  forged: ["Link not valid", "This return link could not be verified, so it was not recorded."],
  badStatus: ["Link not valid", "This return link does not say how the survey ended."],
  busy: ["Please try again", "We could not record your visit just now. Please try again in a moment."],
};

/**
 * Every text in each language (the compiler holds each one complete), except the not-found page,
 * whose texts are the spec's own.
 */
const TEXTS: Record<string, Omit<Text, "notFound">> = {
  en: EN,
  es: {
    heading: "Primero, unas preguntas",
    intro: "Responda estas preguntas para saber si esta encuesta es adecuada para usted.",
    next: "Continuar",
    required: "Responda esta pregunta.",
    choose: "Elija una opción",
    closed: ["Esta encuesta está cerrada", "Gracias por su interés. Esta encuesta no admite más respuestas."],
    thanks: ["¡Gracias!", "Sus respuestas se han registrado. Puede cerrar esta página."],
    terminate: [
      "Gracias por su tiempo",
      "Lamentablemente no coincide con el perfil que busca esta encuesta.",
    ],
    overQuota: [
      "Gracias por su tiempo",
      "Esta encuesta ya tiene suficientes respuestas de personas como usted.",
    ],
    quality: ["Gracias", "No podemos aceptar sus respuestas para esta encuesta. Puede cerrar esta página."],
    missingSid: ["Enlace incompleto", "A este enlace de encuesta le falta su identificador de participante."],
    forged: ["Enlace no válido", "No se pudo verificar este enlace de regreso, así que no se registró."],
    badStatus: ["Enlace no válido", "Este enlace de regreso no indica cómo terminó la encuesta."],
    busy: [
      "Inténtelo de nuevo",
      "No pudimos registrar su visita en este momento. Inténtelo de nuevo en un momento.",
    ],
  },
  fr: {
    heading: "Quelques questions d'abord",
    intro: "Répondez à ces questions pour savoir si cette enquête vous correspond.",
    next: "Continuer",
    required: "Veuillez répondre à cette question.",
    choose: "Choisissez",
    closed: ["Cette enquête est fermée", "Merci de votre intérêt. Cette enquête n'accepte plus de réponses."],
    thanks: ["Merci !", "Vos réponses ont été enregistrées. Vous pouvez fermer cette page."],
    terminate: ["Merci de votre temps", "Votre profil ne correspond malheureusement pas à cette enquête."],
    overQuota: ["Merci de votre temps", "Cette enquête a déjà assez de réponses de personnes comme vous."],
    quality: [
      "Merci",
      "Nous ne pouvons pas accepter vos réponses à cette enquête. Vous pouvez fermer cette page.",
    ],
    missingSid: ["Lien incomplet", "Il manque votre identifiant de répondant dans ce lien d'enquête."],
    forged: [
      "Lien non valide",
      "Ce lien de retour n'a pas pu être vérifié ; il n'a donc pas été enregistré.",
    ],
    badStatus: ["Lien non valide", "Ce lien de retour n'indique pas comment l'enquête s'est terminée."],
    busy: [
      "Veuillez réessayer",
      "Nous n'avons pas pu enregistrer votre visite. Veuillez réessayer dans un instant.",
    ],
  },
  de: {
    heading: "Zuerst ein paar Fragen",
    intro: "Bitte beantworten Sie diese Fragen, damit wir sehen, ob diese Umfrage zu Ihnen passt.",
    next: "Weiter",
    required: "Bitte beantworten Sie diese Frage.",
    choose: "Bitte wählen",
    closed: [
      "Diese Umfrage ist geschlossen",
      "Danke für Ihr Interesse. Diese Umfrage nimmt keine Antworten mehr an.",
    ],
    thanks: ["Vielen Dank!", "Ihre Antworten wurden gespeichert. Sie können diese Seite schließen."],
    terminate: ["Danke für Ihre Zeit", "Leider passen Sie nicht zur Zielgruppe dieser Umfrage."],
    overQuota: ["Danke für Ihre Zeit", "Diese Umfrage hat bereits genug Antworten von Personen wie Ihnen."],
    quality: [
      "Vielen Dank",
      "Wir können Ihre Antworten für diese Umfrage nicht annehmen. Sie können diese Seite schließen.",
    ],
    missingSid: ["Link unvollständig", "In diesem Umfragelink fehlt Ihre Teilnehmerkennung."],
    forged: [
      "Link ungültig",
      "Dieser Rückkehrlink konnte nicht geprüft werden und wurde daher nicht erfasst.",
    ],
    badStatus: ["Link ungültig", "Dieser Rückkehrlink sagt nicht, wie die Umfrage geendet hat."],
    busy: [
      "Bitte erneut versuchen",
      "Ihr Besuch konnte gerade nicht erfasst werden. Bitte versuchen Sie es gleich noch einmal.",
    ],
  },
  pt: {
    heading: "Primeiro, algumas perguntas",
    intro: "Responda a estas perguntas para ver se esta pesquisa é adequada para você.",
    next: "Continuar",
    required: "Responda a esta pergunta.",
    choose: "Escolha uma opção",
    closed: [
      "Esta pesquisa está encerrada",
      "Obrigado pelo interesse. Esta pesquisa não aceita mais respostas.",
    ],
    thanks: ["Obrigado!", "Suas respostas foram registradas. Você pode fechar esta página."],
    terminate: [
      "Obrigado pelo seu tempo",
      "Infelizmente você não corresponde ao perfil que esta pesquisa procura. Você pode fechar esta página.",
    ],
    overQuota: [
      "Obrigado pelo seu tempo",
      "Esta pesquisa já tem respostas suficientes de pessoas como você. Você pode fechar esta página.",
    ],
    quality: [
      "Obrigado",
      "Não podemos aceitar suas respostas para esta pesquisa. Você pode fechar esta página.",
    ],
    missingSid: ["Link incompleto", "Falta o seu identificador de participante neste link da pesquisa."],
    forged: [
      "Link inválido",
      "Não foi possível verificar este link de retorno, por isso ele não foi registrado.",
    ],
    badStatus: ["Link inválido", "Este link de retorno não diz como a pesquisa terminou."],
    busy: ["Tente novamente", "Não conseguimos registrar sua visita agora. Tente novamente em instantes."],
  },
  it: {
    heading: "Prima alcune domande",
    intro: "Rispondi a queste domande per capire se questo sondaggio fa per te.",
    next: "Continua",
    required: "Rispondi a questa domanda.",
    choose: "Scegli",
    closed: ["Questo sondaggio è chiuso", "Grazie per l'interesse. Il sondaggio non accetta altre risposte."],
    thanks: ["Grazie!", "Le tue risposte sono state registrate. Puoi chiudere questa pagina."],
    terminate: [
      "Grazie per il tuo tempo",
      "Purtroppo non rientri nel profilo che questo sondaggio cerca. Puoi chiudere questa pagina.",
    ],
    overQuota: [
      "Grazie per il tuo tempo",
      "Questo sondaggio ha già abbastanza risposte da persone come te. Puoi chiudere questa pagina.",
    ],
    quality: [
      "Grazie",
      "Non possiamo accettare le tue risposte per questo sondaggio. Puoi chiudere questa pagina.",
    ],
    missingSid: [
      "Link incompleto",
      "In questo link del sondaggio manca il tuo identificativo di partecipante.",
    ],
    forged: [
      "Link non valido",
      "Non è stato possibile verificare questo link di ritorno, quindi non è stato registrato.",
    ],
    badStatus: ["Link non valido", "Questo link di ritorno non indica come è finito il sondaggio."],
    busy: ["Riprova", "Non siamo riusciti a registrare la tua visita. Riprova tra un momento."],
  },
};

export const textFor = (lang: string): Text => ({ ...EN, ...(TEXTS[lang.slice(0, 2).toLowerCase()] ?? {}) });

/** The languages the respondent pages speak besides English. */
export const PAGE_LANGUAGES = Object.keys(TEXTS);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f3f4f6}
main{max-width:560px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:24px 20px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 8px}
p{margin:0 0 16px;color:#4b5563}
fieldset{border:0;margin:0 0 20px;padding:0}
legend{font-weight:600;margin-bottom:8px;padding:0}
label.opt{display:flex;gap:10px;align-items:center;padding:10px 12px;border:1px solid #d1d5db;border-radius:8px;margin-bottom:8px;cursor:pointer}
label.opt input{width:18px;height:18px;margin:0}
select,input[type=text]{width:100%;padding:10px 12px;font-size:16px;border:1px solid #d1d5db;border-radius:8px;background:#fff}
.err legend{color:#b91c1c}
.err-text{color:#b91c1c;font-size:.9rem;margin:4px 0 0}
button{width:100%;padding:12px;font-size:1rem;font-weight:600;color:#fff;background:#2563eb;border:0;border-radius:8px;cursor:pointer}
button:focus,input:focus,select:focus{outline:3px solid #93c5fd;outline-offset:1px}
`;

function Shell({ lang, title, children }: { lang: string; title: string; children: React.ReactNode }) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <div className="card">{children}</div>
        </main>
      </body>
    </html>
  );
}

export type MessageKind = keyof Pick<
  Text,
  | "closed"
  | "thanks"
  | "terminate"
  | "overQuota"
  | "quality"
  | "notFound"
  | "missingSid"
  | "forged"
  | "badStatus"
  | "busy"
>;

const doc = (el: React.ReactElement) => `<!doctype html>${renderToString(el)}`;

export function messagePage(kind: MessageKind, lang = "en"): string {
  const t = textFor(lang);
  const [title, body] = t[kind];
  return doc(
    <Shell lang={lang} title={title}>
      <h1>{title}</h1>
      <p>{body}</p>
    </Shell>,
  );
}

export function prescreenPage(opts: {
  uid: string;
  lang: string;
  supplierType: number;
  questions: PrescreenQuestion[];
  missing?: string[];
  values?: (name: string) => string[];
}): string {
  const t = textFor(opts.lang);
  const missing = new Set(opts.missing ?? []);
  const values = opts.values ?? (() => []);
  return doc(
    <Shell lang={opts.lang} title={t.heading}>
      <h1>{t.heading}</h1>
      <p>{t.intro}</p>
      <form method="post" action={`/survey/prescreen/${opts.uid}`}>
        {opts.questions.map((q, i) => {
          const name = `q_${q.id}`;
          const chosen = new Set(values(name));
          const err = missing.has(q.id);
          const title = `${i + 1}. ${titleIn(q, opts.lang)}`;
          const options = visibleOptions(q, opts.supplierType);
          return (
            <fieldset key={q.id} className={err ? "err" : undefined}>
              <legend id={`l_${q.id}`}>{title}</legend>
              {q.type === "TEXT" && (
                <input
                  type="text"
                  name={name}
                  aria-labelledby={`l_${q.id}`}
                  maxLength={500}
                  defaultValue={values(name)[0] ?? ""}
                />
              )}
              {q.type === "DROPDOWN" && (
                <select name={name} aria-labelledby={`l_${q.id}`} defaultValue={[...chosen][0] ?? ""}>
                  <option value="">{t.choose}</option>
                  {options.map((o) => <option key={o._id} value={o._id}>{o.title}</option>)}
                </select>
              )}
              {(q.type === "RADIO" || q.type === "MAP" || q.type === "CHECKBOX") &&
                options.map((o) => (
                  <label key={o._id} className="opt">
                    <input
                      type={q.type === "CHECKBOX" ? "checkbox" : "radio"}
                      name={name}
                      value={o._id}
                      defaultChecked={chosen.has(o._id)}
                    />
                    <span>{o.title}</span>
                  </label>
                ))}
              {err && <p className="err-text" role="alert">{t.required}</p>}
            </fieldset>
          );
        })}
        <button type="submit">{t.next}</button>
      </form>
    </Shell>,
  );
}
