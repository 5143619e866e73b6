/**
 * Word lists for the synthetic benchmark corpus (see `syntheticCorpus.ts`):
 * 40 topics of about 60 nouns each, in English and in Chinese, plus general
 * nouns, verbs, adjectives, adverbs and openers shared by every topic.
 *
 * Order matters: inside a list, earlier words are drawn more often (Zipf-like
 * ranks), and the tail of each topic list supplies the rare words of planted
 * "needle" facts. A word that appears in an earlier list is dropped from later
 * ones, so every word belongs to exactly one list.
 */

/** One topic: an English name, a Chinese name, and its nouns from common to rare. */
export interface Topic {
  name: string;
  nameZh: string;
  en: readonly string[];
  zh: readonly string[];
}

/** The shared (topic-independent) part of one language's vocabulary. */
export interface GeneralVocabulary {
  nouns: readonly string[];
  verbs: readonly string[];
  adjectives: readonly string[];
  adverbs: readonly string[];
  openers: readonly string[];
  timeWords: readonly string[];
  speakers: readonly string[];
}

const RAW_TOPICS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['cooking', '烹饪',
    `recipe kitchen skillet oven garlic onion butter sauce salt flour dough chicken rice pasta soup knife stove cheese tomato lemon vinegar broth
     spice herb noodle dumpling steak potato ginger basil oregano cumin paprika marinade glaze roux brine caramel custard meringue ganache souffle
     risotto paella tagine brioche focaccia gnocchi chutney kimchi miso tahini sumac cardamom nutmeg tarragon fenugreek saffron asafoetida mandoline`,
    `菜谱 厨房 炒锅 烤箱 大蒜 洋葱 黄油 酱汁 食盐 胡椒 面粉 面团 鸡肉 米饭 面条 汤底 菜刀 灶台 奶酪 番茄 柠檬 陈醋 高汤 香料 香草 平底锅 饺子 牛排 土豆 生姜
     罗勒 孜然 辣椒 花椒 八角 桂皮 酱油 蚝油 料酒 豆瓣酱 腐乳 淀粉 勾芡 卤水 焦糖 蛋挞 蒸笼 砂锅 铁板 腊肉 火腿 香菇 木耳 豆腐 粉丝 年糕 馄饨 烧卖 松露 藏红花`],
  ['travel', '旅行',
    `trip hotel passport luggage beach island guidebook visa hostel tourist museum souvenir itinerary backpack jetlag resort cruise cottage village
     ferry hike sunset landmark temple cathedral bazaar layover suitcase postcard lodge campsite hitchhiker fjord oasis canyon safari caravan gondola
     pagoda ryokan riad yurt funicular archipelago atoll lagoon steppe savanna tundra chalet homestay pilgrimage outback souk caravanserai kasbah medina
     promenade boardwalk`,
    `行程 酒店 护照 行李 机票 海滩 海岛 攻略 签证 边境 青旅 游客 博物馆 纪念品 背包 货币 时差 度假村 邮轮 民宿 村庄 渡轮 徒步 日落 地标 寺庙 教堂 集市 转机
     行李箱 明信片 营地 峡湾 绿洲 峡谷 冰川 草原 古镇 缆车 索道 客栈 驿站 栈道 沙漠 雨林 梯田 温泉 石窟 古城 城墙 牌坊 骆驼 帐篷 导游 景区 门票 签注 汇率 免税店`],
  ['personal finance', '理财',
    `money budget savings salary debt loan interest bank account tax pension mortgage credit income expense investment stock bond dividend inflation
     portfolio broker retirement insurance deposit cheque receipt invoice payroll annuity equity liquidity deductible overdraft refinancing amortization
     escrow arbitrage derivative hedge coupon collateral solvency ledger audit remittance subsidy tariff levy endowment tontine debenture forex leverage
     gilt annuitant bondholder custodian`,
    `存款 工资 债务 贷款 利息 银行 账户 税款 养老金 房贷 信用卡 收入 支出 投资 股票 债券 基金 分红 通胀 组合 券商 退休 保险 定期 发票 年金 股权 流动性 透支 杠杆
     对冲 期货 期权 收益率 抵押 偿付 账本 审计 汇款 补贴 关税 复利 净值 回撤 定投 理财师 社保 公积金 个税 国债 逆回购 可转债 信托 私募 配资 质押 爆仓 止损`],
  ['electric vehicles', '电动车',
    `battery motor sedan truck highway inverter plug kilowatt garage dashboard suspension chassis torque regeneration anode cathode electrolyte lithium
     nickel cobalt manganese graphite busbar thermistor contactor stator rotor gearbox drivetrain hatchback pickup supercharger wallbox ultracapacitor
     solenoid differential axle odometer trailer towbar coolant heatpump powertrain tire brake wheel windshield wiper headlight bumper taillight charger
     lidar range`,
    `电池 充电桩 电机 续航 轮胎 刹车 轿车 卡车 高速 逆变器 插头 千瓦时 车库 仪表盘 悬挂 底盘 扭矩 动能回收 电芯 电池包 正极 负极 电解液 锂矿 镍矿 钴矿 锰矿 石墨
     热管理 减速器 差速器 车桥 里程表 拖车 冷却液 热泵 驱动 换电站 快充 慢充 自动驾驶 激光雷达 毫米波 中控屏 座舱 车机 线控 碳化硅 磷酸铁锂 三元锂 刀片电池
     固态电池 充电枪 补能 能耗 电驱 增程器`],
  ['smartphones', '手机',
    `phone screen camera app notification keyboard speaker microphone headphone bluetooth wifi processor chip memory storage sensor pixel gesture widget
     launcher firmware modem antenna haptics bezel notch stylus fingerprint gyroscope accelerometer magnetometer barometer periscope telephoto ultrawide
     gimbal simcard esim baseband bootloader sideload emulator flagship foldable hinge oleophobic digitizer ringtone wallpaper selfie touchscreen
     smartwatch earbud tablet dongle`,
    `屏幕 摄像头 应用 通知 键盘 扬声器 麦克风 耳机 蓝牙 处理器 芯片 内存 存储 传感器 像素 手势 小组件 桌面 固件 基带 天线 马达 边框 刘海 触控笔 指纹 陀螺仪
     气压计 潜望镜 长焦 超广角 云台 卡槽 内核 刷机 模拟器 旗舰 折叠屏 铰链 振动 铃声 壁纸 快充头 数据线 充电器 贴膜 手机壳 主板 散热片 摄像模组 闪光灯 听筒
     息屏 刷新率 分辨率 信号 运营商 套餐`],
  ['video games', '游戏',
    `game player level boss controller console quest character score weapon enemy mission inventory skill server patch graphics multiplayer tournament
     streamer achievement avatar dungeon loot raid guild respawn speedrun checkpoint cutscene hitbox framerate matchmaking leaderboard sandbox
     platformer roguelike metroidvania shader sprite tileset joystick arcade cartridge modding glitch exploit nerf buff grind crafting hotbar minimap
     cooldown aggro`,
    `玩家 关卡 手柄 主机 任务 角色 分数 武器 敌人 技能 服务器 补丁 画面 联机 比赛 主播 成就 头像 地牢 掉落 副本 公会 复活 速通 存档点 过场动画 判定框 帧率
     匹配 排行榜 沙盒 平台跳跃 肉鸽 银河城 着色器 精灵图 摇杆 街机 卡带 模组 漏洞 削弱 加强 刷怪 皮肤 合成 快捷栏 小地图 冷却 仇恨 抽卡 氪金 开荒 首通 连招
     段位 存档 读档`],
  ['football', '足球',
    `goal coach referee striker midfielder defender goalkeeper penalty league stadium fan jersey pitch tackle corner header offside transfer trophy
     captain kickoff halftime crossbar dribble volley freekick sweeper winger fullback libero playmaker hattrick assist foul card substitution derby
     relegation promotion academy scout pressing counterattack possession formation catenaccio tikitaka rabona panenka bicycle throwin byline
     touchline linesman dugout turf shinpad`,
    `进球 教练 裁判 前锋 中场 后卫 门将 点球 联赛 球场 球迷 球衣 铲球 角球 头球 越位 转会 赛季 奖杯 队长 开球 横梁 盘带 凌空抽射 任意球 清道夫 边锋 边后卫
     自由人 组织者 帽子戏法 助攻 犯规 黄牌 红牌 换人 德比 降级 升级 青训 球探 高位逼抢 反击 控球率 阵型 链式防守 传控 挑射 界外球 禁区 门柱 补时 加时赛
     点球大战 人墙 替补席 草皮 护腿板`],
  ['tennis', '网球',
    `racket serve ace baseline net deuce tiebreak lob smash slice topspin forehand backhand grip string clay grass umpire ballboy rally doubles singles
     wildcard grandslam dropshot breakpoint setpoint matchpoint overhead sweetspot overgrip wristband dampener hawkeye qualifier walkover moonball
     tweener bagel breadstick fault sidespin underspin stringbed headband hardcourt seeding ranking exhibition lefty sponsor racquet ballmachine
     netcord tramline`,
    `球拍 发球 截击 底线 球网 平分 抢七 挑高球 高压球 切削 上旋 正手 反手 握拍 球线 红土 草地 硬地 主裁判 球童 多拍 双打 单打 外卡 种子选手 大满贯 决胜盘
     破发 保发 双误 鹰眼 网前 穿越球 放小球 吊球 发球局 接发球 局点 盘点 赛点 破发点 发球线 单打线 拍面 拍柄 吸汗带 护腕 球筒 发球机 底线型 发网型
     超级抢十 资格赛 退赛 伤停 拍线 线床 避震器`],
  ['climate', '气候',
    `temperature rainfall drought flood emission carbon greenhouse icecap sealevel heatwave typhoon hurricane monsoon permafrost coral bleaching
     vegetation forest wetland methane ozone aerosol albedo icecore treering tipping adaptation mitigation netzero wildfire snowmelt seaice gulfstream
     jetstream anticyclone inversion smog acidrain sandstorm decarbonization sequestration photovoltaic windfarm hydropower coal petroleum renewable
     biofuel geoengineering upwelling downwelling thermocline isotherm paleoclimate dendrochronology stratosphere`,
    `气温 降雨 干旱 洪水 碳排放 二氧化碳 温室气体 冰盖 海平面 热浪 台风 飓风 季风 厄尔尼诺 拉尼娜 永久冻土 珊瑚 白化 植被 森林 湿地 碳汇 碳税 碳交易 光伏 风电
     水电 核电 煤炭 石油 天然气 甲烷 臭氧 气溶胶 反照率 冰芯 树轮 气候模型 临界点 净零 碳中和 碳达峰 极端天气 沙尘暴 野火 融雪 冰川消融 海冰 洋流 暖流 寒流
     副热带高压 北极涡旋 逆温 雾霾 酸雨 平流层 上升流 温跃层`],
  ['gardening', '园艺',
    `garden seed soil fertilizer pot watering balcony succulent rose hydrangea orchid jasmine gardenia chrysanthemum tulip cactus seedling strawberry
     mint rosemary compost earthworm pruning cutting grafting sowing trellis shade drip sprinkler trowel shears root leaf bud bloom aphid mildew blight
     humus peat perlite vermiculite mulch bonsai moss nursery rootstock scion topiary espalier dahlia peony lavender hoe rake wheelbarrow`,
    `花园 种子 土壤 肥料 花盆 浇水 阳台 多肉 月季 玫瑰 绣球 兰花 茉莉 栀子 菊花 郁金香 仙人掌 番茄苗 草莓 薄荷 迷迭香 堆肥 蚯蚓 修剪 扦插 嫁接 分株 播种
     育苗 温室 大棚 遮阳网 滴灌 喷壶 铲子 花剪 根系 叶片 花苞 花期 蚜虫 红蜘蛛 白粉病 黑斑病 腐殖土 泥炭 珍珠岩 蛭石 赤玉土 鹿沼土 缓释肥 叶面肥 花架 爬藤
     盆景 苔藓 苗圃 砧木 接穗`],
  ['astronomy', '天文',
    `star moon sun planet galaxy telescope comet meteor meteorite asteroid blackhole neutron dwarf supernova nebula constellation lightyear orbit
     satellite rocket spacecraft astronaut probe eclipse aurora eyepiece finder lightpollution starchart ascension declination magnitude redshift
     gravitational darkmatter quasar pulsar exoplanet transit occultation oort kuiper lagrange parallax cepheid zenith meridian precession ecliptic
     equinox solstice perihelion aphelion apogee perigee nadir azimuth`,
    `星星 月亮 太阳 行星 恒星 星系 银河 望远镜 彗星 流星 陨石 小行星 黑洞 中子星 白矮星 超新星 星云 星座 光年 轨道 卫星 火箭 飞船 空间站 宇航员 探测器 日食
     月食 极光 赤道仪 目镜 物镜 寻星镜 光污染 暗天空 星图 赤经 赤纬 视星等 红移 引力波 暗物质 暗能量 类星体 脉冲星 系外行星 凌日 掩星 奥尔特云 柯伊伯带
     拉格朗日点 洛希极限 视差 造父变星 天顶 子午线 岁差 黄道 近日点 远日点`],
  ['medicine', '医疗',
    `doctor nurse hospital patient medicine drug symptom diagnosis treatment surgery vaccine infection virus bacteria antibiotic prescription clinic
     emergency checkup bloodpressure glucose cholesterol electrocardiogram ultrasound antibody immunity allergy inflammation fever cough headache
     anesthesia rehabilitation physiotherapy acupuncture dosage placebo gene tumor chemotherapy radiotherapy stent pacemaker dialysis transplant
     rejection marrow stemcell stroke infarction asthma biopsy sutures catheter triage stethoscope ventilator sepsis`,
    `医生 护士 医院 病人 药物 症状 诊断 治疗 手术 疫苗 感染 病毒 细菌 抗生素 处方 门诊 急诊 住院 体检 血压 血糖 胆固醇 心电图 核磁共振 超声 化验 血常规 抗体
     免疫 过敏 炎症 发烧 咳嗽 头痛 麻醉 康复 理疗 针灸 中药 副作用 剂量 临床试验 安慰剂 基因 肿瘤 化疗 放疗 靶向药 支架 起搏器 透析 移植 排异 骨髓 干细胞
     脑卒中 心梗 哮喘 活检 导管`],
  ['fitness', '健身',
    `gym dumbbell barbell squat bench deadlift pushup pullup running cardio protein muscle fat metabolism calorie diet warmup stretch abs glutes lats
     triceps biceps rotator foam yoga pilates jumprope rower elliptical kettlebell band plank burpee interval bulking plateau lactate heartrate creatine
     carbs posture treadmill spotter hamstring quadriceps lunge crunch sprint stamina supplements chalk rep superset dropset`,
    `健身房 哑铃 杠铃 深蹲 卧推 硬拉 俯卧撑 引体向上 跑步 有氧 无氧 蛋白粉 肌肉 脂肪 体脂率 代谢 热量 饮食 组数 次数 热身 拉伸 核心 腹肌 臀部 背阔肌 三头肌
     二头肌 肩袖 筋膜枪 泡沫轴 瑜伽 普拉提 跳绳 划船机 椭圆机 动感单车 壶铃 弹力带 平板支撑 波比跳 间歇训练 增肌 减脂 平台期 超量恢复 乳酸 心率 最大摄氧量
     肌酸 支链氨基酸 碳水 蛋白质 体态 驼背 骨盆前倾 护腰 助力带 镁粉 卧推架`],
  ['music production', '音乐制作',
    `arrangement mixing mastering melody chord rhythm beat bass guitar piano synthesizer sample track timbre pedal reverb delay compressor equalizer
     interface monitor headroom studio daw plugin metronome tempo modulation chorus verse intro bridge outro harmony counterpoint arpeggio glissando
     vibrato sidechain automation panning phase clipping noise gain loudness dynamics envelope oscillator filter harmonic distortion tape vinyl mixer
     fader cutoff resonance`,
    `编曲 混音 母带 旋律 和弦 节奏 鼓点 贝斯 吉他 钢琴 合成器 采样 音轨 音色 效果器 混响 延迟 压缩器 均衡器 声卡 监听音箱 耳返 话筒 录音棚 宿主 插件 音源
     节拍器 速度 调式 转调 副歌 主歌 前奏 间奏 尾奏 和声 对位 琶音 滑音 颤音 侧链 自动化 声像 相位 削波 底噪 电平 响度 动态 包络 振荡器 滤波器 谐波 失真 磁带
     黑胶 调音台 推子`],
  ['film', '电影',
    `director actor script shot edit boxoffice cinema audience protagonist villain plot dialogue soundtrack effects scene prop costume makeup lighting
     storyboard montage transition grading subtitle dubbing producer distribution easteregg sequel remake premiere festival palme oscar celluloid
     widescreen aspect depth dolly steadicam greenscreen motioncapture stuntman wrap clapperboard focuspuller noir newwave genre ensemble cameo
     screenplay cinematographer blockbuster matinee projector reel`,
    `导演 演员 剧本 镜头 剪辑 票房 预告片 影院 主角 配角 反派 剧情 台词 配乐 特效 场景 道具 服装 化妆 摄影机 灯光 分镜 长镜头 蒙太奇 转场 调色 字幕 配音 片场
     制片人 发行 影评 彩蛋 续集 翻拍 首映 电影节 金棕榈 奥斯卡 胶片 宽银幕 画幅 景深 推轨 斯坦尼康 绿幕 动作捕捉 替身 杀青 剧照 跟焦 场记板 胶片颗粒 拉片
     黑色电影 新浪潮 类型片 群像 放映机`],
  ['photography', '摄影',
    `lens shutter aperture iso exposure focus composition viewfinder tripod flash whitebalance histogram focallength wideangle macro portrait landscape
     street darkroom developer fixer negative fullframe cropsensor sharpness bokeh flare backlight softbox reflector hood polarizer ndfilter bracketing
     stacking timelapse startrail goldenhour bluehour thirds leadingline vignetting chromatic mirrorless dslr mount adapter rangefinder monopod
     lightmeter gelatin emulsion tintype daguerreotype cyanotype`,
    `相机 快门 光圈 感光度 曝光 对焦 构图 取景器 三脚架 滤镜 白平衡 色温 直方图 焦距 广角 微距 人像 风光 街拍 胶卷 暗房 显影 定影 底片 全画幅 半画幅 画质 噪点
     锐度 虚化 光斑 逆光 侧光 柔光箱 反光板 快门线 遮光罩 偏振镜 减光镜 渐变镜 包围曝光 堆栈 延时摄影 星轨 黄金时刻 蓝调时刻 三分法 引导线 负空间 色差 暗角
     畸变 机身 卡口 转接环 测光表 旁轴`],
  ['programming', '编程',
    `code function variable compiler debugger bug repository branch merge commit framework database frontend backend algorithm array string object
     type loop recursion pointer thread process coroutine async callback closure generic template macro regex serialization dependency bundler
     deployment container image cluster loadbalancer cache index transaction deadlock race garbage refactor techdebt linter pipeline syntax lexer
     bytecode runtime kernel mutex semaphore monad typeclass`,
    `代码 函数 变量 编译器 调试器 报错 仓库 分支 合并 提交 框架 接口 数据库 前端 后端 算法 数组 字符串 对象 类型 循环 递归 指针 线程 进程 协程 异步 回调 闭包
     泛型 模板 宏定义 正则 序列化 依赖 打包 部署 容器 镜像 集群 负载均衡 缓存 索引 事务 死锁 竞态 垃圾回收 单元测试 重构 技术债 代码审查 持续集成 语法树
     词法分析 字节码 虚拟机 互斥锁 信号量`],
  ['artificial intelligence', '人工智能',
    `model dataset training inference network parameter weight gradient loss optimizer learningrate overfitting regularization convolution attention
     transformer embedding vector annotation finetuning pretraining prompt hallucination alignment reward agent corpus tokenizer context gpu tensor
     batch epoch distillation quantization retrieval knowledgegraph clustering classifier regression decisiontree randomforest backpropagation
     activation residual normalization dropout diffusion autoencoder multimodal benchmark perplexity logits softmax sigmoid perceptron heuristic`,
    `模型 数据集 训练 推理 神经网络 参数 权重 梯度 损失函数 优化器 学习率 过拟合 正则化 卷积 注意力 变换器 嵌入 向量 标注 微调 预训练 提示词 幻觉 对齐 奖励模型
     强化学习 智能体 大模型 语料 分词器 上下文 显卡 算力 张量 批次 轮次 蒸馏 量化 剪枝 检索增强 知识图谱 聚类 分类器 回归 决策树 随机森林 支持向量机 反向传播
     激活函数 残差 归一化 丢弃法 扩散模型 生成对抗网络 自编码器 多模态 思维链 基准测试 困惑度`],
  ['cryptocurrency', '加密货币',
    `bitcoin ethereum blockchain wallet privatekey publickey seedphrase exchange miner mining hashrate hash block node consensus fork smartcontract
     token stablecoin airdrop staking liquiditypool decentralization oracle sidechain lightning fee gas coldwallet hotwallet rig halving whitepaper
     roadmap marketcap bull bear altcoin futures shorting pump dump whale onchain address inscription zeroknowledge merkle byzantine reentrancy
     flashloan impermanentloss satoshi nonce mempool validator rollup`,
    `比特币 以太坊 区块链 钱包 私钥 公钥 助记词 交易所 矿工 挖矿 哈希 区块 节点 共识 分叉 智能合约 代币 稳定币 空投 流动性池 去中心化 预言机 跨链 侧链
     闪电网络 手续费 燃料费 冷钱包 热钱包 矿池 矿机 减半 白皮书 路线图 市值 牛市 熊市 山寨币 合约 做空 做多 拉盘 砸盘 韭菜 庄家 链上 地址 铭文 零知识证明
     默克尔树 拜占庭 图灵完备 重入攻击 闪电贷 无常损失 验证者 内存池 随机数 二层网络`],
  ['real estate', '房地产',
    `house price downpayment landlord tenant rent lease floorplan property neighborhood apartment villa location zoning title deed stampduty closing
     renovation furniture orientation daylight ceiling elevator parking duplex loft bay homestead demolition resettlement appraisal listing showing
     realtor condo townhouse basement attic foreclosure easement setback frontage walkup penthouse subdivision homeowner covenant bungalow escalation
     mezzanine conveyancing gazumping freehold leasehold`,
    `房子 房价 首付 中介 房东 租客 租金 合同 户型 楼盘 开发商 物业 小区 学区房 二手房 新房 公寓 别墅 地段 容积率 绿化率 公摊 产权 房产证 契税 过户 按揭 土地
     拍卖 地王 烂尾楼 交房 精装修 毛坯 装修 家具 朝向 采光 层高 电梯 车位 楼层 复式 跃层 飘窗 储藏室 宅基地 拆迁 安置房 经适房 限购 限贷 摇号 认筹 样板间
     售楼处 物业费 评估价 网签`],
  ['education', '教育',
    `school teacher student course homework exam grade textbook classroom principal class gaokao university major thesis supervisor scholarship
     tutoring curriculum lesson syllabus worksheet quiz dictation recitation essay laboratory semester midterm final admission graduate doctorate
     defense degree tenure boarding uniform homeroom lecture seminar diploma valedictorian pedagogy rubric literacy numeracy detention recess truancy
     sophomore freshman alumni dormitory`,
    `学校 老师 学生 课程 作业 考试 成绩 教材 课堂 校长 家长 班级 高考 中考 大学 专业 学分 论文 导师 奖学金 留学 补习班 辅导 课外班 素质教育 应试 教案 课件
     板书 习题 错题本 听写 默写 背诵 阅读理解 作文 实验课 体育课 美术课 教研组 期中考 期末考 模拟考 志愿 录取 分数线 研究生 博士 答辩 学位 职称 教改 双减
     寄宿 走读 校服 早读 晚自习 班主任 家长会`],
  ['parenting', '育儿',
    `child baby parent formula diaper stroller kindergarten nanny picturebook toy weaning breastfeeding nap tantrum teething crawling toddler puberty
     allowance punishment screentime playdate carseat bottle pacifier bib playmat lullaby midwife postpartum maternity sibling bedtime colic eczema
     jaundice fontanelle babysitter daycare onesie crib swaddle bassinet rattle sippy potty highchair babyproofing milestone growthchart homeschool
     grandparent chores`,
    `孩子 宝宝 父母 奶粉 尿布 婴儿车 幼儿园 保姆 早教 绘本 玩具 辅食 母乳 断奶 睡眠 哭闹 体温 身高 体重 出牙 爬行 学步 说话 叛逆期 青春期 零花钱 规矩 奖励
     惩罚 屏幕时间 兴趣班 亲子 陪伴 安全座椅 奶瓶 吸奶器 安抚奶嘴 口水巾 爬爬垫 学步车 儿歌 胎教 月嫂 月子 产假 二胎 分床 分房 夜醒 肠绞痛 湿疹 黄疸 囟门
     抓周 满月酒 百日宴 摇篮 襁褓`],
  ['pets', '宠物',
    `cat dog catfood kibble litter leash collar cage aquarium hamster rabbit parrot turtle goldfish vet neutering deworming grooming nail scratcher
     cattree wand treat kennel fur shedding brush breed corgi shiba ragdoll tabby retriever labrador collie husky poodle adoption stray shelter
     microchip distemper parvovirus earmite ringworm hairball frisbee snufflemat carrier guineapig ferret gecko terrarium muzzle harness catnip`,
    `猫咪 狗狗 猫粮 狗粮 猫砂 牵引绳 项圈 笼子 鱼缸 仓鼠 兔子 鹦鹉 乌龟 金鱼 兽医 绝育 驱虫 疫苗本 洗澡 美容 指甲 猫抓板 猫爬架 逗猫棒 零食 罐头 冻干 狗窝
     玩具球 尿垫 毛发 掉毛 梳子 品种 柯基 柴犬 布偶猫 英短 橘猫 金毛 拉布拉多 边牧 哈士奇 泰迪 寄养 领养 流浪猫 救助站 猫瘟 细小 耳螨 猫藓 化毛膏 营养膏
     飞盘 嗅闻垫 航空箱 猫薄荷 胸背带`],
  ['history', '历史',
    `dynasty emperor empire war battle army chancellor kingdom civilization archaeology ruin artifact chronicle bamboo bronze porcelain silkroad
     examination uprising revolution treaty colony navigation citystate tribe feudalism clan era posthumous tomb terracotta canal beacon annals
     historian eunuch warlord regent garrison conscription aqueduct legion pharaoh papyrus hieroglyph manuscript serf vassal crusade senate
     centurion mandarin scribe`,
    `朝代 皇帝 王朝 战争 战役 军队 将领 宰相 诸侯 帝国 文明 考古 遗址 文物 史书 史料 碑文 竹简 甲骨文 青铜器 瓷器 丝绸之路 科举 变法 起义 革命 条约 殖民地
     航海 城邦 部落 封建 宗族 宫廷 年号 谥号 庙号 陵墓 兵马俑 长城 运河 驿道 烽火台 编年体 纪传体 史官 通鉴 藩镇 节度使 太监 外戚 门阀 府兵 屯田 漕运 盐铁
     均田制 玉玺 虎符`],
  ['elections', '选举',
    `voter candidate vote ballot district legislator parliament president party campaign debate poll canvassing primary convention nomination speech
     slogan platform donation tally swingstate electoral incumbent impeachment coalition ruling opposition minority majority seat proportional recount
     absentee mailin registration observer fraud referendum recall term inauguration cabinet minister staffer lobbying superpac grassroots
     gerrymandering caucus manifesto turnout exitpoll runoff filibuster`,
    `选民 候选人 投票 选票 选区 议员 议会 总统 政党 竞选 辩论 民调 拉票 初选 大选 党代会 提名 演讲 口号 政纲 捐款 计票 开票 摇摆州 选举人团 连任 弹劾 联盟
     执政党 反对党 少数党 多数党 席位 比例代表 单一选区 重新计票 缺席投票 邮寄选票 选民登记 投票站 监票员 舞弊 公投 罢免 任期 就职 内阁 部长 幕僚 游说
     草根 基本盘 中间选民 政治献金 竞选经理 选情 造势`],
  ['law', '法律',
    `lawyer judge courtroom lawsuit contract clause evidence witness verdict appeal plaintiff defendant prosecution mediation arbitration compensation
     breach tort patent trademark copyright license statute regulation constitution criminal civil precedent jury prosecutor notary will inheritance
     custody alimony divorce bail probation parole subpoena jurisdiction limitation burden innocence injunction settlement partner diligence
     affidavit deposition indictment habeas tortfeasor forcemajeure`,
    `律师 法官 法院 案件 诉讼 条款 证据 证人 判决 上诉 原告 被告 起诉 辩护 调解 仲裁 赔偿 违约 侵权 专利 商标 版权 许可证 法规 条例 宪法 刑法 民法 判例
     陪审团 检察官 公证 遗嘱 继承 监护权 抚养费 离婚 保释 缓刑 假释 传票 管辖权 诉讼时效 举证责任 无罪推定 正当程序 禁令 和解 律所 法务 尽职调查 不可抗力
     格式条款 违约金 定金 留置权 代理人 执行庭`],
  ['startups', '创业',
    `founder investor fundraising valuation angel businessplan share option product user growth retention conversion acquisition channel cashflow
     burn profit vertical incubator accelerator board duediligence termsheet dilution buyback exit ipo merger unicorn layoff hiring optionpool mvp
     iteration retro persona painpoint moat flywheel coldstart networkeffect cofounder runway churn traction pivot bootstrapping vesting cliff
     demoday saas freemium upsell`,
    `创始人 投资人 融资 估值 天使轮 种子轮 路演 商业计划书 股份 团队 产品 增长 留存 转化率 获客 渠道 商业模式 现金流 烧钱 盈利 赛道 风口 孵化器 加速器 董事会
     尽调 条款清单 对赌 稀释 回购 退出 上市 并购 独角兽 裁员 招聘 合伙人 期权池 最小可行产品 迭代 复盘 用户画像 痛点 护城河 飞轮 冷启动 网络效应 单位经济
     客单价 复购率 毛利率 种子用户 增长黑客 天使投资 联合创始人 估值倍数 现金跑道`],
  ['fashion', '时尚',
    `dress coat shirt trousers shoes handbag accessory fabric designer brand catwalk fashionweek trend outfit color tailoring style collection couture
     readytowear fastfashion luxury vintage secondhand sneaker limited collab embroidery print silk cashmere denim leather linen knitwear silhouette
     waistline pleat shoulderpad heels loafer scarf brooch earring necklace perfume lipstick eyeshadow manicure hairstyle boutique lookbook hemline
     corset stiletto`,
    `衣服 裙子 外套 衬衫 裤子 鞋子 包包 配饰 面料 设计师 品牌 秀场 模特 走秀 时装周 潮流 搭配 穿搭 色彩 剪裁 款式 系列 高定 成衣 快时尚 奢侈品 古着 球鞋
     限量款 联名 刺绣 印花 丝绸 羊绒 牛仔 皮革 亚麻 针织 廓形 腰线 褶皱 垫肩 高跟鞋 乐福鞋 手袋 围巾 胸针 耳环 项链 香水 口红 眼影 美甲 发型 妆容 买手店
     橱窗 束腰 细高跟`],
  ['architecture', '建筑',
    `architect blueprint structure foundation column beam wall roof staircase facade concrete rebar curtainwall brick timber stone atrium courtyard
     cloister dome arch bracket eave joinery seismic ventilation insulation efficiency planning urbanism skyline skyscraper library gymnasium
     operahouse siheyuan stilt tulou rockery screenwall caisson plinth brutalism bauhaus gothic baroque parametric cantilever shearwall lintel
     buttress pilaster portico colonnade`,
    `建筑师 图纸 结构 地基 柱子 墙体 屋顶 楼梯 窗户 立面 混凝土 钢筋 玻璃幕墙 红砖 木材 石材 中庭 庭院 回廊 穹顶 拱门 斗拱 飞檐 榫卯 抗震 通风 保温 节能
     绿色建筑 规划 城市设计 天际线 摩天楼 地标建筑 图书馆 体育馆 歌剧院 四合院 吊脚楼 土楼 骑楼 园林 假山 影壁 照壁 藻井 雀替 须弥座 粗野主义 包豪斯 哥特式
     巴洛克 参数化设计 悬挑 剪力墙 过梁 扶壁 壁柱 门廊`],
  ['coffee', '咖啡',
    `bean cafe latte americano espresso cappuccino mocha pourover dripper grinder roast origin ethiopia colombia yunnan caffeine milk latteart machine
     colddrip coldbrew capsule instant flavor acidity aftertaste extraction ratio barista cupping gesha washed honey anaerobic siphon frenchpress
     mokapot aeropress portafilter tamper distributor crema flatwhite cortado ristretto lungo macchiato affogato robusta arabica decaf kettle
     microlot`,
    `咖啡豆 咖啡馆 拿铁 美式 浓缩 卡布奇诺 摩卡 手冲 滤杯 磨豆机 研磨 烘焙 浅烘 深烘 产区 埃塞俄比亚 哥伦比亚 云南 咖啡因 奶泡 拉花 意式机 冰滴 冷萃 挂耳
     胶囊 速溶 风味 酸度 醇厚度 回甘 萃取 粉水比 水温 闷蒸 咖啡师 杯测 生豆 瑰夏 日晒 水洗 蜜处理 厌氧发酵 虹吸壶 法压壶 摩卡壶 爱乐压 聪明杯 分享壶 手冲壶
     温度计 电子秤 粉碗 压粉器 布粉器 油脂 馥芮白 可塔多`],
  ['wine', '葡萄酒',
    `redwine whitewine winery vineyard region oak barrel cork decanter glass tannin aroma sommelier tasting label cabernet merlot pinot chardonnay
     sauvignon riesling syrah sangiovese bordeaux burgundy champagne sparkling dessert icewine botrytis fermentation aging bottling cellar corkscrew
     alcohol terroir grandcru premiercru lees malolactic sulfite tartaric legs nose blind pairing winelist harvest phylloxera magnum varietal
     tempranillo malbec zinfandel grenache`,
    `红酒 白葡萄酒 酒庄 葡萄园 年份 产地 橡木桶 软木塞 醒酒器 酒杯 单宁 酒体 余味 香气 侍酒师 品酒 酒标 赤霞珠 梅洛 黑皮诺 霞多丽 长相思 雷司令 西拉 桑娇维塞
     波尔多 勃艮第 香槟 起泡酒 桃红 甜酒 冰酒 贵腐 发酵 陈酿 装瓶 酒窖 开瓶器 酒精度 风土 列级庄 特级园 一级园 酒泥 苹果酸乳酸发酵 二氧化硫 酒石酸 挂杯 闻香
     盲品 配餐 酒单 窖藏 采收 修枝 根瘤蚜 歌海娜 马尔贝克`],
  ['fishing', '钓鱼',
    `rod hook bait float sinker reel lure reservoir river lake surf jetty crucian carp grasscarp silvercarp bighead snakehead perch tilapia groundbait
     chum cast strike keepnet tacklebox umbrella leader mainline softplastic spoon minnow jig fly tide angler catchandrelease trout salmon pike marlin
     tuna flyfishing tippet spinner crankbait swivel bobber creel landingnet spinnerbait jerkbait popper topwater braid fluorocarbon`,
    `鱼竿 鱼钩 鱼线 鱼饵 浮漂 铅坠 渔轮 路亚 钓点 水库 河流 湖泊 海钓 矶钓 台钓 夜钓 冰钓 鲫鱼 鲤鱼 草鱼 鲢鱼 鳙鱼 黑鱼 鳜鱼 鲈鱼 翘嘴 罗非鱼 饵料 窝料
     打窝 抛竿 提竿 溜鱼 抄网 鱼护 钓箱 钓椅 遮阳伞 水深 调漂 找底 子线 主线 假饵 亮片 米诺 软虫 铅头钩 飞蝇 拟饵 潮汐 鱼情 爆护 空军 中鱼 跑鱼 切线 钓位 脑线`],
  ['aviation', '航空',
    `airplane flight airport runway copilot attendant tower route boardingpass security checkin cabin cockpit engine wing flap landinggear blackbox
     autopilot altitude airspeed turbulence diversion goaround takeoff landing taxi apron jetbridge terminal radar transponder fuel widebody
     narrowbody regional helicopter glider mechanic airworthiness testflight stall trim aileron rudder turbofan turboprop thrust windshear icing
     deicing fuselage hangar propeller cargo glideslope squawk`,
    `飞机 航班 机场 机长 副驾驶 空乘 塔台 航线 登机牌 安检 托运 客舱 驾驶舱 发动机 机翼 襟翼 起落架 黑匣子 高度 空速 湍流 气流 颠簸 备降 复飞 起飞 降落 滑行
     停机坪 廊桥 航站楼 空管 雷达 应答机 仪表着陆系统 油耗 航油 宽体机 窄体机 支线飞机 直升机 滑翔机 机务 适航 试飞 失速 尾旋 配平 副翼 升降舵 方向舵 涡扇
     涡桨 推力 风切变 积冰 除冰 机身蒙皮 机库`],
  ['railways', '铁路',
    `train highspeed station platform carriage railway sleeper switch signal dispatcher driver conductor berth dining waitingroom timetable delay
     maglev subway lightrail tram freight marshalling locomotive steam diesel electric pantograph catenary embankment tunnel speedlimit gauge ballast
     blocking interlocking balise turnback overtaking screendoor ticketoffice rebooking refund waitlist railcar caboose coupler bogie siding depot
     roundhouse turntable signalbox`,
    `火车 高铁 动车 车站 站台 车厢 车票 铁轨 枕木 道岔 信号灯 调度 司机 列车员 卧铺 硬座 餐车 检票口 候车室 时刻表 晚点 正点 复兴号 和谐号 磁悬浮 地铁 轻轨
     有轨电车 货运 集装箱 编组站 机车 蒸汽机车 内燃机车 电力机车 受电弓 接触网 路基 隧道 桥梁 限速 轨距 标准轨 窄轨 无缝钢轨 道床 道砟 闭塞 联锁 列控 应答器
     折返 越行 站台门 乘务员 售票窗口 改签 退票 候补`],
  ['marine biology', '海洋',
    `ocean wave seawater reef whale dolphin shark seaturtle jellyfish octopus starfish urchin seaweed seagrass plankton krill deepsea trench vent
     seabed shelf intertidal mangrove seabird penguin seal sealion otter bluewhale humpback orca spermwhale diving submersible sonar salinity oxygen
     acidification redtide fishery overfishing sanctuary migration spawning gill fin photophore tubeworm anglerfish seacucumber anemone hermitcrab
     barnacle clam nautilus dugong manatee`,
    `海洋 海浪 海水 珊瑚礁 鲸鱼 海豚 鲨鱼 海龟 水母 章鱼 海星 海胆 海藻 海草 浮游生物 磷虾 深海 海沟 热泉 洋底 大陆架 潮间带 红树林 海鸟 企鹅 海豹 海狮 海獭
     蓝鲸 座头鲸 虎鲸 抹香鲸 潜水 潜水器 声呐 盐度 溶解氧 海洋酸化 赤潮 渔业 过度捕捞 保护区 洄游 产卵 鱼鳃 鱼鳍 发光器 管虫 鮟鱇鱼 海参 海葵 寄居蟹 藤壶
     砗磲 鹦鹉螺 儒艮 海牛 深海鱼`],
  ['geology', '地质',
    `rock mineral stratum fossil volcano earthquake fault plate crust mantle lava magma ash basalt granite limestone sandstone shale marble quartz
     feldspar mica crystal diamond cave stalactite stalagmite karst moraine alluvial delta valley cliff danxia yardang seastack anticline syncline
     intensity epicenter aftershock tsunami mudslide landslide geothermal geyser vein exploration borehole isotope dating paleomagnetism ophiolite
     subduction ridge hotspot obsidian pumice`,
    `岩石 矿物 地层 化石 火山 地震 断层 板块 地壳 地幔 地核 岩浆 熔岩 火山灰 玄武岩 花岗岩 石灰岩 砂岩 页岩 大理石 石英 长石 云母 水晶 钻石 溶洞 钟乳石
     石笋 喀斯特 冰碛 冲积扇 三角洲 河谷 峭壁 丹霞 雅丹 海蚀柱 背斜 向斜 震级 烈度 震中 余震 海啸 泥石流 滑坡 地热 间歇泉 矿脉 勘探 钻孔 岩芯 同位素
     放射性测年 古地磁 蛇绿岩 俯冲带 洋中脊 热点 黑曜石`],
  ['chess', '棋类',
    `chessboard piece opening endgame middlegame check king queen rook knight bishop pawn castling enpassant sacrifice tactic strategy rating
     grandmaster master blitz bullet rapid clock stalemate perpetual draw resignation sicilian gambit french carokann italian ruylopez kingsindian
     bishoppair isolani doubled passed weakness outpost pin skewer discovered zugzwang smothered backrank chain space material fianchetto
     underpromotion opposition zwischenzug`,
    `棋盘 棋子 开局 残局 中局 国王 皇后 城堡 骑士 主教 小兵 王车易位 吃过路兵 升变 兑子 弃子 战术 战略 棋谱 等级分 特级大师 国际大师 快棋 超快棋 慢棋
     计时器 逼和 长将 僵局 和棋 认输 引擎 开局库 西西里防御 后翼弃兵 法兰西防御 卡罗康防御 意大利开局 西班牙开局 王翼印度防御 双象优势 孤兵 叠兵 通路兵
     弱格 前哨 牵制 闪击 双击 抽将 闷杀 底线杀 兵链 空间优势 子力 中心控制 对王`],
  ['crafts', '手工',
    `yarn needle crochet stitch caston bindoff knit purl ribbing cable pattern chart skein wool cotton mohair sweater hat glove sock blanket
     crossstitch thread sewing thimble scissors ruler button zipper lace tapestry beading clay pottery kiln firing woodwork chisel sandpaper glue
     hotglue felting tiedye indigo quilt macrame loom weaving bobbin spindle awl batik decoupage origami papercut`,
    `毛线 棒针 钩针 针法 起针 收针 平针 上针 下针 罗纹 麻花 花样 图解 线团 羊毛 棉线 马海毛 毛衣 帽子 手套 袜子 毯子 十字绣 绣绷 绣线 布料 缝纫机 针线
     顶针 剪刀 尺子 纽扣 拉链 花边 蕾丝 编织袋 挂毯 串珠 黏土 陶艺 拉坯 釉料 窑炉 烧制 木工 刨子 凿子 砂纸 胶水 热熔胶 羊毛毡 戳针 扎染 蓝染 拼布 钩织
     剪纸 折纸 皮具`],
  ['beekeeping', '养蜂',
    `bee hive honey beeswax worker drone comb swarm beekeeper apiary extractor uncapping smoker beesuit veil royaljelly propolis pollen nectar
     rapeseed acacia lychee linden jujube overwintering buildup queencell requeening combining varroa waxmoth hornet apis excluder pollentrap feeder
     syrup brood capping broodframe honeyframe entrance hivetool beebrush venom pollination frame sting super nuc supersedure drawncomb`,
    `蜜蜂 蜂箱 蜂蜜 蜂蜡 蜂王 工蜂 雄蜂 蜂巢 巢脾 巢础 蜂群 分蜂 蜂农 蜂场 摇蜜机 割蜜刀 喷烟器 防护服 面网 蜂王浆 蜂胶 花粉 蜜源 油菜花 槐花 荔枝蜜 椴树 枣花
     越冬 春繁 王台 育王 换王 合群 蜂螨 巢虫 胡蜂 中蜂 意蜂 土蜂 蜂路 隔王板 脱粉器 饲喂器 糖浆 蜂蛹 封盖 子脾 蜜脾 粉脾 巢门 起刮刀 蜂刷 蜂毒 授粉 蜂蜡片
     巢框 蜂针 继箱`],
  ['mountaineering', '登山',
    `summit climber iceaxe crampon helmet rope piton quickdraw belay ascender descender tent sleepingbag basecamp highcamp sherpa crevasse avalanche
     cornice col icewall rockface climbing bouldering leadclimbing toprope acclimatization weatherwindow descent frostbite snowblindness edema boots
     downjacket hardshell headlamp trekkingpole eightthousander alpinestyle traverse snowslope serac hangingglacier bivouac carabiner abseil
     fixedline jumar deadman snowpicket pitch`,
    `山峰 登山者 冰镐 冰爪 安全带 头盔 绳索 岩钉 快挂 保护器 上升器 下降器 睡袋 大本营 突击营地 高原反应 氧气瓶 夏尔巴 向导 冰裂缝 雪崩 雪檐 山脊 垭口 冰壁
     岩壁 攀岩 抱石 先锋攀登 顶绳 结组 路线 海拔 适应性训练 天气窗口 登顶 下撤 冻伤 雪盲 肺水肿 脑水肿 高山靴 羽绒服 冲锋衣 头灯 登山杖 背负系统 技术装备
     八千米 无氧攀登 阿式攀登 横切 雪坡 冰塔林 悬冰川 路绳 主锁 雪锥`],
];

const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** English words shared by every topic. */
export const GENERAL_EN: GeneralVocabulary = {
  nouns: words(`people time year day thing way problem idea question part point place case week month number group system fact story example result
    reason moment friend company project side end kind lot issue detail cost quality choice experience difference situation decision opinion answer
    chance effect step feature solution challenge approach risk benefit advice mistake habit topic episode channel video comment community family
    home city country world life job work data information research area industry future list minute hour weekend morning evening guy setup plan`),
  verbs: words(`use make try need check find start watch keep show change build choose compare consider create describe design discuss explain explore
    fix follow handle improve include learn manage measure mention move notice offer open prepare protect prove push reach remember replace review
    run save share solve support test track want win bring cover deliver drive expect focus miss finish carry worry buy sell grow cut mix clean order
    study teach enjoy avoid reduce increase collect record repair upgrade install adjust balance visit`),
  adjectives: words(`good big small new old important different simple difficult cheap expensive fast slow strong weak local global basic huge tiny early
    late modern classic popular rare common public private major minor serious quick careful obvious strange real typical special interesting useful
    practical original main whole current previous hidden full empty safe risky heavy bright long short fresh clean complex smooth rough quiet loud
    stable solid perfect terrible amazing boring weird decent reliable`),
  adverbs: words(`really actually basically probably definitely honestly usually often sometimes quickly slowly carefully finally clearly simply totally
    exactly almost still always`),
  openers: ['So', 'Well', 'Okay', 'You know', 'I mean', 'Honestly', 'Look', 'Right', 'And', 'But', 'Actually', 'Basically', 'Anyway', 'Yeah'],
  timeWords: words('week month year season episode summer winter'),
  speakers: words(`Host Guest Alex Jordan Sam Taylor Morgan Casey Riley Jamie Chris Dana Robin Maya Leo Nina Omar Priya Ethan Zoe Lucas`),
};

/** Chinese words shared by every topic. */
export const GENERAL_ZH: GeneralVocabulary = {
  nouns: words(`问题 时间 情况 方法 方面 事情 东西 大家 朋友 公司 项目 过程 结果 原因 例子 部分 地方 机会 经验 数据 成本 效果 标准 方向 阶段 细节 能力 环境
    市场 用户 价格 质量 选择 变化 建议 风险 目标 计划 思路 趋势 行业 未来 节目 视频 频道 观众 评论 社区 家人 生活 工作 城市 国家 世界 技术 资源 压力 习惯
    话题 观点 逻辑 体验 感觉`),
  verbs: words(`讨论 分析 使用 提高 改进 测试 检查 比较 挑选 设计 解决 准备 管理 研究 介绍 推荐 调整 处理 控制 保护 优化 观察 记录 评估 学习 了解 考虑 支持
    发现 完成 开发 购买 维护 解释 关注 尝试 整理 升级 替换 计算 分享 讲解 规划 安排`),
  adjectives: words(`重要 复杂 简单 便宜 昂贵 稳定 明显 关键 普遍 特殊 有效 实用 传统 先进 安全 危险 困难 容易 严重 优秀 成熟 灵活 清楚 奇怪 有趣 基础 专业
    合理 稀有 常见 新鲜 完整 详细 具体 直接 准确 可靠 舒服 麻烦 厉害`),
  adverbs: words('很 非常 特别 真的 确实 比较 相当 挺 有点 太'),
  openers: words('然后 所以 其实 我觉得 就是说 对 嗯 那么 另外 说实话 你知道 反正'),
  timeWords: words('月 星期 季度 学期'),
  speakers: words(`主持人 嘉宾 张伟 王芳 李娜 刘洋 陈静 杨磊 赵敏 黄强 周婷 吴昊 徐丽 孙涛 马超 朱琳 胡军 郭晶 何平 林悦`),
};

function dedupe(lists: ReadonlyArray<readonly string[]>, seen: Set<string>): string[][] {
  return lists.map((list) => list.filter((w) => {
    if (seen.has(w)) return false;
    seen.add(w);
    return true;
  }));
}

function buildTopics(): Topic[] {
  const seenEn = new Set<string>([...GENERAL_EN.nouns, ...GENERAL_EN.verbs, ...GENERAL_EN.adjectives, ...GENERAL_EN.adverbs]);
  const seenZh = new Set<string>([...GENERAL_ZH.nouns, ...GENERAL_ZH.verbs, ...GENERAL_ZH.adjectives, ...GENERAL_ZH.adverbs]);
  const en = dedupe(RAW_TOPICS.map((t) => words(t[2]).slice(0, 64)), seenEn);
  const zh = dedupe(RAW_TOPICS.map((t) => words(t[3]).slice(0, 64)), seenZh);
  return RAW_TOPICS.map((t, i) => ({ name: t[0], nameZh: t[1], en: en[i]!.slice(0, 60), zh: zh[i]!.slice(0, 60) }));
}

/** The 40 topics, each word in exactly one topic (duplicates dropped from later topics). */
export const TOPICS: readonly Topic[] = buildTopics();

/**
 * Syllables of invented English names (exactly three letters each, so that a
 * name made of several of them reads back in only one way and stays unique).
 */
export const NAME_SYLLABLES: readonly string[] = words(`kor vel mas zun tri qua dex lor fen gar pel rho sen tuv wim yar zol bal cen dov esk fal gur hin jor kal lum mon
  nep orr pax qil ros sul tam vor wex xan yel zem bor cas del eth fro gil har ilk jun kev lin mur nox osk pim rux syl tor ulm vin`);

/**
 * Rare Chinese characters for invented Chinese names; characters used anywhere
 * in the Chinese vocabulary are removed so a name never occurs by accident.
 */
export const NAME_CHARS_ZH: readonly string[] = ((): string[] => {
  const used = new Set<string>();
  const all = [...GENERAL_ZH.nouns, ...GENERAL_ZH.verbs, ...GENERAL_ZH.adjectives, ...GENERAL_ZH.adverbs, ...GENERAL_ZH.openers, ...GENERAL_ZH.timeWords,
    ...GENERAL_ZH.speakers, ...TOPICS.flatMap((t) => [...t.zh, t.nameZh])];
  for (const w of all) for (const ch of w) used.add(ch);
  const pool = [...'珀琮瑾璇翎祺湄岚濯昶翊骁曦柘芮蔺棠琰珩钰霁澈渝芊苒萱苡荼蘅骐麒鸢鹭雯靖钊铎旻晟晔暄炜烨煜焱熠岑峤嵘巍崧淼泓沅澜潇珺琛璟玥瑶婕妤'];
  return [...new Set(pool)].filter((ch) => !used.has(ch));
})();
