/**
 * Word lists of the comments pass: sentiment per language (English, Spanish,
 * Chinese) with the negators that flip it, and the words that are never a
 * comment theme. Small on purpose; heuristics, labelled "extractive" wherever
 * their output appears. Latin-script entries are matched on lower-cased
 * tokens without accents ("increíble" and "increible" are one entry).
 */

export const POSITIVE_EN = [
  'good', 'great', 'love', 'loved', 'loving', 'lovely', 'amazing', 'awesome', 'excellent', 'best', 'thanks', 'thank', 'helpful', 'useful', 'nice',
  'beautiful', 'happy', 'glad', 'better', 'agree', 'interesting', 'brilliant', 'perfect', 'fantastic', 'enjoy', 'enjoyed', 'enjoying', 'wonderful',
  'cool', 'fun', 'wow', 'incredible', 'insightful', 'informative', 'inspiring', 'inspirational', 'impressive', 'epic', 'favorite', 'favourite',
  'masterpiece', 'legend', 'legendary', 'genius', 'superb', 'outstanding', 'valuable', 'recommend', 'catchy', 'talented', 'gorgeous', 'cute',
  'appreciate', 'appreciated', 'congrats', 'congratulations', 'dope', 'underrated', 'liked', 'likes', 'loves', 'beautifully', 'fascinating',
];
export const NEGATIVE_EN = [
  'bad', 'terrible', 'hate', 'hated', 'hates', 'awful', 'worst', 'worse', 'boring', 'bored', 'wrong', 'sad', 'angry', 'useless', 'annoying',
  'disappointed', 'disappointing', 'poor', 'fail', 'failed', 'scam', 'fake', 'stupid', 'dumb', 'trash', 'garbage', 'crap', 'sucks', 'suck',
  'cringe', 'overrated', 'horrible', 'ugly', 'lame', 'waste', 'pathetic', 'ridiculous', 'disgusting', 'misleading', 'lies', 'liar', 'nonsense',
  'irritating', 'mediocre', 'dislike', 'unfair', 'hating', 'worthless', 'idiot', 'idiots', 'idiotic',
];
/** `like` is a preposition as often as a verb: it counts after these words only ("I like", "really like", "don't like"). */
export const LIKE_AFTER_EN = ['i', 'we', 'you', 'u', 'they', 'really', 'totally', 'also', 'do', 'still', 'just', 'actually', 'd', 'ya'];
/** Negators: flip the next sentiment word within three words (not across punctuation). */
export const NEGATORS_EN = ['not', 'no', 'never', 'nothing', 'hardly', 'barely', 'neither', 'nor', 'without', 'dont', 'doesnt', 'didnt', 'isnt', 'wasnt', 'arent', 'werent', 'cant', 'cannot', 'wont', 'wouldnt', 'couldnt', 'shouldnt', 'aint', 'havent', 'hasnt'];
/** Phrases whose words would mislead: counted as a whole, their words then ignored. */
export const PHRASES_EN: readonly [string, number][] = [
  ["can't wait", 1], ['cant wait', 1], ['never gets old', 1], ['never get old', 1], ['no doubt', 0], ['not only', 0], ['nothing but', 0],
  ['no wonder', 0], ["can't stop listening", 1], ['cant stop listening', 1], ['no problem', 0], ['not bad at all', 1], ['second to none', 1],
];

export const POSITIVE_ES = [
  'bueno', 'buena', 'buenos', 'buenas', 'buenisimo', 'buenisima', 'genial', 'excelente', 'gracias', 'increible', 'encanta', 'encanto', 'encantan',
  'mejor', 'mejores', 'interesante', 'interesantes', 'grande', 'grandes', 'crack', 'top', 'brutal', 'espectacular', 'maravilloso', 'maravillosa',
  'enhorabuena', 'felicidades', 'felicitaciones', 'fantastico', 'fantastica', 'recomiendo', 'inspirador', 'inspiradora', 'util', 'valioso',
  'valiosa', 'bien', 'guapo', 'mola', 'gusta', 'gusto', 'gustan', 'bonito', 'bonita', 'hermoso', 'hermosa', 'perfecto', 'perfecta',
  'impresionante', 'brillante', 'favorito', 'favorita', 'disfrute', 'disfrutado', 'entretenido', 'entretenida', 'ameno', 'amena',
  'maquina', 'idolo', 'aprendi', 'aprendido', 'admiro', 'enorme', 'increibles', 'buenisimos', 'joya', 'buen', 'gran', 'buenazo', 'maravilla',
];
export const NEGATIVE_ES = [
  'malo', 'mala', 'malos', 'malas', 'mal', 'peor', 'peores', 'horrible', 'aburrido', 'aburrida', 'mentira', 'mentiras', 'odio', 'triste',
  'basura', 'pesimo', 'pesima', 'decepcion', 'decepcionante', 'decepcionado', 'decepcionada', 'terrible', 'fatal', 'asco', 'asqueroso',
  'ridiculo', 'absurdo', 'estafa', 'falso', 'falsa', 'verguenza', 'lamentable', 'patetico', 'insoportable', 'tonteria', 'tonterias', 'pesado',
  'cansino', 'chungo', 'mierda', 'rechazo', 'humo', 'postureo', 'irritante', 'soporifero', 'flojo', 'floja',
];
export const NEGATORS_ES = ['no', 'nunca', 'jamas', 'tampoco', 'ni', 'nada', 'sin', 'nadie', 'ningun', 'ninguna', 'ninguno'];
export const PHRASES_ES: readonly [string, number][] = [
  ['sin duda', 0], ['no hay duda', 0], ['no tiene desperdicio', 1], ['no me canso', 1], ['no puedo esperar', 1], ['de nada', 0], ['no es por nada', 0],
  ['sin embargo', 0], ['mas o menos', 0], ['mejor dicho', 0],
];

export const POSITIVE_ZH = [
  '很好', '真好', '太好', '挺好', '非常好', '好看', '好听', '好吃', '好用', '棒', '喜欢', '支持', '感谢', '谢谢', '有用', '实用', '参考价值', '不错', '优秀',
  '厉害', '赞', '精彩', '开心', '满意', '推荐', '有趣', '有意思', '牛逼', '太牛', '真牛', '完美', '受益', '干货', '专业', '佩服', '感动', '漂亮', '清楚', '学到',
];
export const NEGATIVE_ZH = [
  '差', '不好', '讨厌', '失望', '垃圾', '坑', '折腾', '太慢', '太久', '难受', '骗', '不行', '糟糕', '生气', '夸张', '无聊', '难看', '难听', '恶心', '烂',
  '差劲', '浪费', '误导', '离谱', '后悔', '扯淡', '忽悠', '无语',
];
/** Chinese words that hold a sentiment character but say nothing about it: matched first, then skipped. */
export const NEUTRAL_ZH = ['差不多', '差点', '出差', '相差', '差距', '好像', '好多', '你好', '好几', '不好意思', '问好', '只好', '好奇', '烂尾', '垃圾分类', '不差钱'];
/** Negators that flip a sentiment word right after them (with 太/很/是/够/怎么/那么/算 between). */
export const NEGATORS_ZH = ['不', '没', '没有', '别', '未', '无', '并不', '毫不', '从不', '从没', '一点也不', '一点都不'];

export const POSITIVE_EMOJI = ['❤', '♥', '😍', '🥰', '👍', '👏', '🔥', '💯', '🙌', '😊', '🤩', '💪'];
export const NEGATIVE_EMOJI = ['👎', '😡', '🤮', '💩', '😠', '🤬', '😒'];

/** Words of comments that are never a theme: praise, greetings, the medium itself, laughter. */
export const NOT_A_THEME = new Set(
  [
    // English
    'video', 'videos', 'vid', 'vids', 'comment', 'comments', 'channel', 'youtube', 'views', 'view', 'viewers', 'watch', 'watching', 'watched',
    'lol', 'lmao', 'omg', 'haha', 'hahaha', 'xd', 'wow', 'guys', 'everyone', 'anybody', 'somebody', 'thanks', 'thank', 'please', 'plz', 'pls',
    'subscribe', 'subscribers', 'subs', 'likes', 'dislikes', 'check', 'song', 'songs', 'music', 'best', 'love', 'yes', 'gonna', 'wanna',
    'feel', 'makes', 'man', 'dude', 'bro', 'shit', 'fuck', 'fucking', 'damn', 'hell', 'god', 'ever', 'still', 'back', 'today', 'day', 'days',
    'listen', 'listening', 'hear', 'heard', 'come', 'came', 'coming', 'put', 'keep', 'look', 'looks', 'looking', 'start', 'started',
    'thumbs', 'guy', 'kinda', 'read', 'funny', 'crazy', 'weird', 'old', 'new', 'real', 'true', 'big', 'little', 'sexy', 'hot', 'pretty', 'whole',
    'first', 'last', 'next', 'lot', 'lots', 'stuff', 'part', 'hey', 'hello', 'dont', 'didnt', 'cant', 'wont', 'doesnt', 'isnt', 'im', 'ive',
    // Spanish
    'gracias', 'saludos', 'abrazo', 'abrazos', 'jaja', 'jajaja', 'jajajaja', 'jajajajaja', 'jeje', 'crack', 'grande', 'grandes', 'video', 'vídeo',
    'vídeos', 'videos', 'canal', 'comentario', 'comentarios', 'podcast', 'podcasts', 'episodio', 'capítulo', 'contenido', 'gente', 'persona',
    'personas', 'tío', 'tio', 'vez', 'veces', 'año', 'años', 'día', 'días', 'mucho', 'mucha', 'muchos', 'muchas', 'muy', 'más', 'mas', 'algo',
    'nada', 'todo', 'todos', 'siempre', 'ahora', 'aquí', 'así', 'bien', 'mejor', 'mejores', 'brutal', 'top', 'hace', 'hacer', 'ver', 'visto',
    'creo', 'sigue', 'seguir', 'sigan', 'hablar', 'habla', 'dice', 'decir', 'favor', 'ojalá', 'parte', 'tema', 'temas', 'sería', 'alguien',
    'cada', 'pedazo', 'suscribo', 'suscrito', 'suscrita', 'suscriptor', 'suscriptores', 'subs', 'saludo', 'enhorabuena', 'felicidades', 'veo',
    'sabe', 'poder', 'aquí', 'aqui', 'ahí', 'allí', 'tal', 'ser', 'estar', 'tener', 'va', 'van', 'voy', 'pues', 'hola', 'jajajaja', 'xd',
    'puede', 'pueden', 'tiene', 'tienen', 'quiero', 'quieres', 'sé', 'ver', 'veo', 'hecho', 'dicho', 'cosas', 'cosa', 'forma', 'manera',
    'almost', 'thought', 'talk', 'deserve', 'thing', 'things', 'way', 'time',
    'checking', 'han', 'ha', 'he', 'has', 'hemos', 'habéis', 'había',
    'saying', 'say', 'says', 'share', 'sharing', 'shared', 'talking', 'going', 'making', 'doing', 'getting', 'trying', 'waiting', 'thinking',
    'hearing', 'seeing', 'knowing', 'wanting', 'feeling', 'loving', 'hating', 'hope', 'wish', 'wait', 'mean', 'guess', 'sure', 'gotta',
    'saw', 'seen', 'told', 'knew', 'felt', 'gave', 'took', 'tell', 'know', 'think', 'remember', 'miss', 'found', 'find', 'stop',
    'bastante', 'seguid', 'demasiado', 'nunca', 'solo', 'sólo', 'tan', 'tanto', 'aún', 'todavía', 'luego', 'mismo', 'misma', 'verdad', 'cierto',
    // Chinese
    '视频', '评论', '哈哈', '哈哈哈', '谢谢', '支持', '频道', '大佬', '老师', '博主', 'up主', 'up',
  ].map((w) => w.toLowerCase()),
);
/** Last words that make a two-word candidate a clause, not a noun phrase ("mixtape check", "song makes"). */
export const NOT_A_PHRASE_END = new Set([
  'check', 'watch', 'love', 'like', 'make', 'makes', 'want', 'listen', 'hear', 'subscribe', 'sub', 'share', 'follow', 'help', 'see', 'look',
  'come', 'go', 'get', 'take', 'give', 'keep', 'say', 'says', 'let', 'need', 'please', 'thanks', 'lol', 'ever', 'still', 'back', 'guys',
]);
