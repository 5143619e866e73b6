/** The questions bench/ask.ts measures (and bench/askStages.ts `--ask-questions` breaks down): every intent, three languages. */
export const ASK_BENCH_QUESTIONS: readonly string[] = [
  'What was said about battery costs in the first 10 minutes?',
  'Summarize the discussion about supply chains',
  'Which themes keep coming back across the episodes?',
  'What do viewers think about the pricing?',
  'Which moments would make good short clips?',
  'What did the host say about regulation after the 20-minute mark?',
  'How do the guests compare on market growth?',
  '这些视频里关于电池价格的讨论有哪些？',
  '¿Qué opinan los espectadores sobre el precio?',
  'Why did the team change the delivery plan?',
];
