/**
 * The demo packages' texts (content/tools/make-packages.ts): one short quiz per package kind on
 * everyday cyber-security, in each tenant's language. The right answer of each question is
 * `answer` (its index); the pages show no correction before the result screen.
 */

export type Lang = 'fr' | 'en';
export type Kind = 'scorm12' | 'scorm2004' | 'cmi5';

export interface Question {
  text: string;
  choices: string[];
  answer: number;
}

export interface Quiz {
  kind: Kind;
  lang: Lang;
  /** File name in content/demo/packages/. */
  file: string;
  /** Identifier base of the manifest (course, organisation, AU). */
  id: string;
  title: string;
  description: string;
  questions: Question[];
  /** cmi5: the course's second AU, a checklist read then marked done (issue 39: a multi-AU course). */
  checklist?: Checklist;
}

export interface Checklist {
  title: string;
  items: string[];
  done: string;
  thanks: string;
  noLms: string;
  saveFailed: string;
}

/** Share of right answers to pass (SCORM 1.2 masteryscore 70, SCORM 2004 and cmi5 0.7). */
export const MASTERY = 0.7;

export interface UiTexts {
  intro: string;
  start: string;
  resumeNote: string;
  questionOf: string;
  next: string;
  finish: string;
  result: string;
  passed: string;
  failed: string;
  review: string;
  loading: string;
  noLms: string;
  saveFailed: string;
}

export const UI: Record<Lang, UiTexts> = {
  fr: {
    intro: 'Quatre questions, une réponse par question. Votre progression est enregistrée à chaque question.',
    start: 'Commencer',
    resumeNote: 'Vous reprenez là où vous vous étiez arrêté.',
    questionOf: 'Question {n} sur {total}',
    next: 'Question suivante',
    finish: 'Voir mon résultat',
    result: 'Votre score : {correct} sur {total} ({percent} %)',
    passed: 'Réussi : vous maîtrisez l’essentiel.',
    failed: 'Pas encore : relisez les questions manquées.',
    review: 'Vos réponses',
    loading: 'Chargement…',
    noLms: 'Aucune plateforme de formation ne suit ce module : vos réponses ne sont pas enregistrées.',
    saveFailed: 'Votre progression n’a pas pu être enregistrée.',
  },
  en: {
    intro: 'Four questions, one answer each. Your progress is saved after each question.',
    start: 'Start',
    resumeNote: 'You are picking up where you left off.',
    questionOf: 'Question {n} of {total}',
    next: 'Next question',
    finish: 'See my result',
    result: 'Your score: {correct} out of {total} ({percent}%)',
    passed: 'Passed: you know the essentials.',
    failed: 'Not yet: read the questions you missed again.',
    review: 'Your answers',
    loading: 'Loading…',
    noLms: 'No learning platform tracks this module: your answers are not saved.',
    saveFailed: 'Your progress could not be saved.',
  },
};

export const QUIZZES: Quiz[] = [
  {
    kind: 'scorm12',
    lang: 'fr',
    file: 'mots-de-passe-scorm12.zip',
    id: 'parcours-demo-mots-de-passe',
    title: 'Des mots de passe solides',
    description: 'Choisir, garder et ne jamais prêter ses mots de passe (module SCORM 1.2).',
    questions: [
      {
        text: 'Quel mot de passe est le plus solide ?',
        choices: ['Azerty123', 'cheval-agrafe-pluie-7-lampe', 'Votre date de naissance'],
        answer: 1,
      },
      {
        text: 'Peut-on utiliser le même mot de passe sur plusieurs sites ?',
        choices: [
          'Oui, s’il est long',
          'Non : une seule fuite ouvre alors tous vos comptes',
          'Oui, pour les sites professionnels seulement',
        ],
        answer: 1,
      },
      {
        text: 'Où garder des dizaines de mots de passe ?',
        choices: [
          'Dans un gestionnaire de mots de passe',
          'Sur un carnet sous le clavier',
          'Dans un tableur sur le bureau',
        ],
        answer: 0,
      },
      {
        text: 'Un collègue vous demande votre mot de passe pour vous dépanner. Que faites-vous ?',
        choices: [
          'Je le lui donne, j’ai confiance',
          'Je refuse et je demande au service informatique un accès pour lui',
          'Je le lui donne et je le change le lendemain',
        ],
        answer: 1,
      },
    ],
  },
  {
    kind: 'scorm2004',
    lang: 'fr',
    file: 'hameconnage-scorm2004.zip',
    id: 'parcours-demo-hameconnage',
    title: "Déjouer l'hameçonnage",
    description: 'Reconnaître un message piégé et réagir vite (module SCORM 2004, 4e édition).',
    questions: [
      {
        text: 'Un message inconnu écrit « Votre compte sera fermé ce soir, cliquez ici ». Que faites-vous ?',
        choices: [
          'Je clique pour vérifier',
          'Je ne clique pas, je vérifie l’expéditeur et je signale le message',
          'Je réponds pour demander des précisions',
        ],
        answer: 1,
      },
      {
        text: 'Le lien mène à « banque-connexion-securisee.example.net ». Est-ce l’adresse de votre banque ?',
        choices: [
          'Oui, le mot « banque » y figure',
          'Oui, « sécurisée » le garantit',
          'Rien ne le prouve : c’est un domaine inconnu',
        ],
        answer: 2,
      },
      {
        text: 'Vous avez saisi votre mot de passe sur une page piégée. Que faites-vous ?',
        choices: [
          'Rien, cela arrive à tout le monde',
          'Je change le mot de passe et je préviens tout de suite le service informatique',
          'J’attends de voir s’il se passe quelque chose',
        ],
        answer: 1,
      },
      {
        text: 'Une pièce jointe « facture.zip » arrive sans que vous attendiez de facture.',
        choices: ['Je l’ouvre pour voir', 'Je la transfère à un collègue', 'Je la signale sans l’ouvrir'],
        answer: 2,
      },
    ],
  },
  {
    kind: 'cmi5',
    lang: 'fr',
    file: 'mises-a-jour-cmi5.zip',
    id: 'parcours-demo-mises-a-jour',
    title: 'Mises à jour et sauvegardes',
    description: 'Garder ses appareils à jour et ses données en lieu sûr (module cmi5).',
    checklist: {
      title: 'Ma liste de vérification',
      items: [
        'Les mises à jour automatiques sont activées sur mon ordinateur et mon téléphone.',
        'Mes fichiers importants ont trois copies, dont une hors du bureau.',
        'J’ai déjà essayé de restaurer un fichier depuis une sauvegarde.',
      ],
      done: 'J’ai vérifié ces points',
      thanks: 'C’est noté : cette unité est terminée.',
      noLms: 'Aucune plateforme de formation ne suit ce module : rien n’est enregistré.',
      saveFailed: 'L’enregistrement a échoué. Réessayez.',
    },
    questions: [
      {
        text: 'Votre ordinateur propose une mise à jour de sécurité.',
        choices: [
          'Je la repousse indéfiniment',
          'Je l’installe dès que possible',
          'Je désactive les mises à jour',
        ],
        answer: 1,
      },
      {
        text: 'Que dit la règle de sauvegarde 3-2-1 ?',
        choices: [
          'Trois copies, sur deux supports, dont une hors du site',
          'Trois sauvegardes par jour pendant deux semaines',
          'Trois mots de passe pour deux comptes',
        ],
        answer: 0,
      },
      {
        text: 'Vous trouvez une clé USB sur le parking.',
        choices: [
          'Je la branche pour trouver son propriétaire',
          'Je la remets au service informatique sans la brancher',
          'Je la formate',
        ],
        answer: 1,
      },
      {
        text: 'Vous quittez votre poste pour une réunion.',
        choices: [
          'Je verrouille ma session',
          'Je laisse tout ouvert, je reviens vite',
          'J’éteins seulement l’écran',
        ],
        answer: 0,
      },
    ],
  },
  {
    kind: 'scorm12',
    lang: 'en',
    file: 'passwords-scorm12.zip',
    id: 'parcours-demo-passwords',
    title: 'Strong passwords',
    description: 'Choose, keep and never lend your passwords (a SCORM 1.2 module).',
    questions: [
      {
        text: 'Which password is the strongest?',
        choices: ['Qwerty123', 'horse-stapler-rain-7-lamp', 'Your date of birth'],
        answer: 1,
      },
      {
        text: 'Can you use the same password on several sites?',
        choices: [
          'Yes, if it is long',
          'No: one leak then opens all your accounts',
          'Yes, for work sites only',
        ],
        answer: 1,
      },
      {
        text: 'Where do you keep dozens of passwords?',
        choices: [
          'In a password manager',
          'In a notebook under the keyboard',
          'In a spreadsheet on the desktop',
        ],
        answer: 0,
      },
      {
        text: 'A colleague asks for your password to cover for you. What do you do?',
        choices: [
          'I give it, I trust them',
          'I refuse and ask IT to give them access',
          'I give it and change it the next day',
        ],
        answer: 1,
      },
    ],
  },
  {
    kind: 'scorm2004',
    lang: 'en',
    file: 'phishing-scorm2004.zip',
    id: 'parcours-demo-phishing',
    title: 'Spotting phishing',
    description: 'Recognise a trapped message and react fast (a SCORM 2004 4th edition module).',
    questions: [
      {
        text: 'An unknown sender writes “Your account closes tonight, click here”. What do you do?',
        choices: [
          'I click to check',
          'I do not click, I check the sender and report the message',
          'I reply to ask for details',
        ],
        answer: 1,
      },
      {
        text: 'The link leads to “bank-secure-login.example.net”. Is it your bank’s address?',
        choices: [
          'Yes, it says “bank”',
          'Yes, “secure” guarantees it',
          'Nothing proves it: it is an unknown domain',
        ],
        answer: 2,
      },
      {
        text: 'You typed your password on a trapped page. What do you do?',
        choices: [
          'Nothing, it happens to everyone',
          'I change the password and tell IT at once',
          'I wait to see what happens',
        ],
        answer: 1,
      },
      {
        text: 'An attachment “invoice.zip” arrives while you expect no invoice.',
        choices: ['I open it to see', 'I forward it to a colleague', 'I report it without opening it'],
        answer: 2,
      },
    ],
  },
  {
    kind: 'cmi5',
    lang: 'en',
    file: 'updates-backups-cmi5.zip',
    id: 'parcours-demo-updates',
    title: 'Updates and backups',
    description: 'Keep your devices up to date and your data safe (a cmi5 module).',
    checklist: {
      title: 'My checklist',
      items: [
        'Automatic updates are on, on my computer and my phone.',
        'My important files have three copies, one of them away from the office.',
        'I have already tried restoring a file from a backup.',
      ],
      done: 'I have checked these points',
      thanks: 'Noted: this unit is done.',
      noLms: 'No learning platform follows this module: nothing is recorded.',
      saveFailed: 'Saving failed. Try again.',
    },
    questions: [
      {
        text: 'Your computer offers a security update.',
        choices: ['I postpone it forever', 'I install it as soon as I can', 'I turn updates off'],
        answer: 1,
      },
      {
        text: 'What does the 3-2-1 backup rule say?',
        choices: [
          'Three copies, on two media, one of them off site',
          'Three backups a day for two weeks',
          'Three passwords for two accounts',
        ],
        answer: 0,
      },
      {
        text: 'You find a USB stick in the car park.',
        choices: ['I plug it in to find its owner', 'I hand it to IT without plugging it in', 'I format it'],
        answer: 1,
      },
      {
        text: 'You leave your desk for a meeting.',
        choices: [
          'I lock my session',
          'I leave everything open, I will be quick',
          'I only switch the screen off',
        ],
        answer: 0,
      },
    ],
  },
];
